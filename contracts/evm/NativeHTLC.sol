// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {HtlcBase} from "./HtlcBase.sol";

/**
 * @title NativeHTLC
 * @notice Hashed timelock contract for the chain's native coin (v3 interface): every initiate carries
 *         exactly `amount` as `msg.value`.
 */
contract NativeHTLC is HtlcBase {
    error IncorrectNativeValue(uint256 expected, uint256 received);
    error NativeTransferFailed(address to);

    /// @notice Locks `msg.value` (== `amount`) of the caller for `redeemer`.
    function initiate(address redeemer, uint256 timelock, uint256 amount, bytes32 secretHash) external payable {
        _initiate(msg.sender, redeemer, timelock, amount, secretHash);
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
        _initiate(msg.sender, redeemer, timelock, amount, secretHash);
    }

    /// @notice The caller pays; `initiator` is who may refund.
    function initiateOnBehalf(address initiator, address redeemer, uint256 timelock, uint256 amount, bytes32 secretHash)
        external
        payable
    {
        _checkFunder(msg.sender, redeemer);
        _initiate(initiator, redeemer, timelock, amount, secretHash);
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
        _initiate(initiator, redeemer, timelock, amount, secretHash);
    }

    function _initiate(address initiator, address redeemer, uint256 timelock, uint256 amount, bytes32 secretHash)
        private
    {
        if (msg.value != amount) revert IncorrectNativeValue(amount, msg.value);
        _createOrder(initiator, redeemer, timelock, amount, secretHash);
    }

    function _payOut(address to, uint256 amount) internal override {
        (bool sent,) = payable(to).call{value: amount}("");
        if (!sent) revert NativeTransferFailed(to);
    }
}
