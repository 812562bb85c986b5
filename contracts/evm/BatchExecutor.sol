// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/**
 * @title BatchExecutor
 * @notice The code an account delegates to with EIP-7702 so that one transaction of its own carries many
 *         calls, each made by the account itself: the HTLCs see the account as `msg.sender`, so it is the
 *         initiator and the funder of every order it initiates in a batch, exactly as in a lone call.
 * @dev Runs in the delegating account's context and holds no storage, so there is nothing to initialise
 *      and nothing another delegation could find in its slots. Only the account itself may execute: a
 *      transaction it signs to its own address has `msg.sender == address(this)`; anyone else, including
 *      a contract the batch calls and that calls back, is refused. There is no signature-based entry, so
 *      nothing signed for it can be replayed. A call marked `allowFailure` fails alone: it undoes only its
 *      own effects, and its result says so; one that is not undoes the whole batch (which is how a gas
 *      estimate is made to cover every call rather than the cheapest way for calls to fail).
 */
contract BatchExecutor {
    struct Call {
        address target;
        bool allowFailure;
        uint256 value;
        bytes data;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    error NotSelf(address caller);
    error CallFailed(uint256 index, bytes returnData);

    /// @notice Makes `calls` in order from this account, each with `value` of its coin.
    function execute(Call[] calldata calls) external payable returns (Result[] memory results) {
        if (msg.sender != address(this)) revert NotSelf(msg.sender);
        uint256 count = calls.length;
        results = new Result[](count);
        for (uint256 i = 0; i < count; ++i) {
            Call calldata call = calls[i];
            (bool success, bytes memory returnData) = call.target.call{value: call.value}(call.data);
            if (!success && !call.allowFailure) revert CallFailed(i, returnData);
            results[i] = Result(success, returnData);
        }
    }

    /// @notice The account still receives its coin once it delegates here (an HTLC paying it back).
    receive() external payable {}
}
