// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";

/**
 * @title HtlcBase
 * @notice Order book, initiate, redeem and refund rules shared by the ERC20 and the native-coin HTLC
 *         (v3 interface). Subclasses decide how value comes in (`_lock`) and how it goes out (`_payOut`).
 * @dev An order id commits to every term of the order and to this contract, so the same terms can never be
 *      initiated twice here and a secret only redeems the order whose id it recomputes.
 */
abstract contract HtlcBase is EIP712 {
    struct Order {
        address initiator;
        address redeemer;
        uint256 initiatedAt;
        uint256 timelock;
        uint256 amount;
        uint256 fulfilledAt;
    }

    bytes32 private constant _REFUND_TYPEHASH = keccak256("Refund(bytes32 orderId)");

    mapping(bytes32 => Order) public orders;

    event Initiated(bytes32 indexed orderID, bytes32 indexed secretHash, uint256 indexed amount);
    event Redeemed(bytes32 indexed orderID, bytes32 indexed secretHash, bytes secret);
    event Refunded(bytes32 indexed orderID);

    error ZeroAddressInitiator();
    error ZeroAddressRedeemer();
    error SameInitiatorAndRedeemer();
    error SameFunderAndRedeemer();
    error ZeroTimelock();
    error ZeroAmount();
    error DuplicateOrder(bytes32 orderID);
    error OrderNotInitiated(bytes32 orderID);
    error OrderFulfilled(bytes32 orderID);
    error OrderNotExpired(bytes32 orderID);
    error InvalidSecretLength(uint256 length);
    error IncorrectSecret(bytes32 orderID);
    error InvalidRedeemerSignature(bytes32 orderID);

    constructor() EIP712("HTLC", "3") {}

    /// @notice Locks `amount` of the caller for `redeemer`.
    function initiate(address redeemer, uint256 timelock, uint256 amount, bytes32 secretHash) external payable {
        _lock(msg.sender, msg.sender, redeemer, timelock, amount, secretHash);
    }

    /// @notice As `initiate`; `destinationData` travels in calldata for indexers and is not stored.
    function initiate(
        address redeemer,
        uint256 timelock,
        uint256 amount,
        bytes32 secretHash,
        bytes calldata destinationData
    ) external payable {
        destinationData; // read by indexers from calldata; the contract does not store it
        _lock(msg.sender, msg.sender, redeemer, timelock, amount, secretHash);
    }

    /// @notice The caller pays; `initiator` is who may refund.
    function initiateOnBehalf(address initiator, address redeemer, uint256 timelock, uint256 amount, bytes32 secretHash)
        external
        payable
    {
        _checkFunder(msg.sender, redeemer);
        _lock(msg.sender, initiator, redeemer, timelock, amount, secretHash);
    }

    /// @notice As `initiateOnBehalf`, with `destinationData` carried in calldata only.
    function initiateOnBehalf(
        address initiator,
        address redeemer,
        uint256 timelock,
        uint256 amount,
        bytes32 secretHash,
        bytes calldata destinationData
    ) external payable {
        destinationData; // read by indexers from calldata; the contract does not store it
        _checkFunder(msg.sender, redeemer);
        _lock(msg.sender, initiator, redeemer, timelock, amount, secretHash);
    }

    /**
     * @notice Pays the order to its redeemer. Anyone may submit the secret; it stays valid after expiry
     *         until the order is refunded.
     */
    function redeem(bytes32 orderID, bytes calldata secret) external {
        Order storage order = _openOrder(orderID);
        if (secret.length != 32) revert InvalidSecretLength(secret.length);
        bytes32 secretHash = sha256(secret);
        bytes32 expected = _orderId(secretHash, order.initiator, order.redeemer, order.timelock, order.amount);
        if (expected != orderID) revert IncorrectSecret(orderID);

        order.fulfilledAt = block.number;
        emit Redeemed(orderID, secretHash, secret);
        _payOut(order.redeemer, order.amount);
    }

    /// @notice Returns the order to its initiator once more than `timelock` blocks have passed.
    function refund(bytes32 orderID) external {
        Order storage order = _openOrder(orderID);
        // Written as a difference so that a huge timelock cannot overflow.
        if (block.number - order.initiatedAt <= order.timelock) revert OrderNotExpired(orderID);

        order.fulfilledAt = block.number;
        emit Refunded(orderID);
        _payOut(order.initiator, order.amount);
    }

    /**
     * @notice Returns the order to its initiator before expiry when the redeemer agrees: either the
     *         redeemer calls, or `signature` is the redeemer's EIP-712 `Refund(bytes32 orderId)` signature.
     */
    function instantRefund(bytes32 orderID, bytes calldata signature) external {
        Order storage order = _openOrder(orderID);
        if (msg.sender != order.redeemer) {
            bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(_REFUND_TYPEHASH, orderID)));
            if (!SignatureChecker.isValidSignatureNowCalldata(order.redeemer, digest, signature)) {
                revert InvalidRedeemerSignature(orderID);
            }
        }

        order.fulfilledAt = block.number;
        emit Refunded(orderID);
        _payOut(order.initiator, order.amount);
    }

    /// @dev Validates the terms and records the order; the caller collects the value afterwards.
    function _createOrder(address initiator, address redeemer, uint256 timelock, uint256 amount, bytes32 secretHash)
        internal
        returns (bytes32 orderID)
    {
        if (initiator == address(0)) revert ZeroAddressInitiator();
        if (redeemer == address(0)) revert ZeroAddressRedeemer();
        if (initiator == redeemer) revert SameInitiatorAndRedeemer();
        if (timelock == 0) revert ZeroTimelock();
        if (amount == 0) revert ZeroAmount();

        orderID = _orderId(secretHash, initiator, redeemer, timelock, amount);
        // Fulfilled orders keep their initiator, so their terms cannot be reused either.
        if (orders[orderID].initiator != address(0)) revert DuplicateOrder(orderID);

        orders[orderID] = Order({
            initiator: initiator,
            redeemer: redeemer,
            initiatedAt: block.number,
            timelock: timelock,
            amount: amount,
            fulfilledAt: 0
        });
        emit Initiated(orderID, secretHash, amount);
    }

    /// @dev The funder of an on-behalf order must not be its redeemer (it would pay itself).
    function _checkFunder(address funder, address redeemer) internal pure {
        if (funder == redeemer) revert SameFunderAndRedeemer();
    }

    /// @dev Records the order (`_createOrder`) and takes `amount` from `funder` the way this contract holds value.
    function _lock(
        address funder,
        address initiator,
        address redeemer,
        uint256 timelock,
        uint256 amount,
        bytes32 secretHash
    ) internal virtual;

    function _payOut(address to, uint256 amount) internal virtual;

    function _openOrder(bytes32 orderID) private view returns (Order storage order) {
        order = orders[orderID];
        if (order.initiator == address(0)) revert OrderNotInitiated(orderID);
        if (order.fulfilledAt != 0) revert OrderFulfilled(orderID);
    }

    function _orderId(bytes32 secretHash, address initiator, address redeemer, uint256 timelock, uint256 amount)
        private
        view
        returns (bytes32)
    {
        return sha256(abi.encode(block.chainid, secretHash, initiator, redeemer, timelock, amount, address(this)));
    }
}
