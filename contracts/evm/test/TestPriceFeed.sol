// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice A price feed in the shape of Chainlink's AggregatorV3Interface whose rounds its owner sets:
/// the localnet's and the tests' stand-in for an on-chain oracle. Test only: it reports what it is told.
contract TestPriceFeed {
    struct Round {
        int256 answer;
        uint256 startedAt;
        uint256 updatedAt;
        uint80 answeredInRound;
    }

    uint8 public immutable decimals;
    address public immutable owner;
    string public description;
    uint80 public latestRound;
    mapping(uint80 roundId => Round) private rounds;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    error NotOwner(address caller);
    error NoDataPresent();

    constructor(uint8 decimals_, string memory description_, int256 answer) {
        decimals = decimals_;
        description = description_;
        owner = msg.sender;
        _push(answer, block.timestamp, block.timestamp, 0);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }

    /// @notice Starts a new round answered now, as a live feed's update would.
    function setAnswer(int256 answer) external onlyOwner {
        _push(answer, block.timestamp, block.timestamp, 0);
    }

    /// @notice Starts a new round with any fields: an old `updatedAt` (stale), `answeredInRound` below
    /// the round (an answer carried over), a non-positive answer. 0 for `answeredInRound` means this round.
    function setRound(int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound) external onlyOwner {
        _push(answer, startedAt, updatedAt, answeredInRound);
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return getRoundData(latestRound);
    }

    function getRoundData(uint80 roundId) public view returns (uint80, int256, uint256, uint256, uint80) {
        Round memory round = rounds[roundId];
        if (round.answeredInRound == 0) revert NoDataPresent();
        return (roundId, round.answer, round.startedAt, round.updatedAt, round.answeredInRound);
    }

    function _push(int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound) private {
        uint80 roundId = latestRound + 1;
        latestRound = roundId;
        rounds[roundId] = Round(answer, startedAt, updatedAt, answeredInRound == 0 ? roundId : answeredInRound);
        emit AnswerUpdated(answer, roundId, updatedAt);
    }
}
