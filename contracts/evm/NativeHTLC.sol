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

    /// @dev The coin arrives with the call itself, so the funder is always the caller.
    function _lock(address, address initiator, address redeemer, uint256 timelock, uint256 amount, bytes32 secretHash)
        internal
        override
    {
        if (msg.value != amount) revert IncorrectNativeValue(amount, msg.value);
        _createOrder(initiator, redeemer, timelock, amount, secretHash);
    }

    function _payOut(address to, uint256 amount) internal override {
        (bool sent,) = payable(to).call{value: amount}("");
        if (!sent) revert NativeTransferFailed(to);
    }
}
