// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/**
 * @title Multicall
 * @notice Runs many calls in one transaction. It offers the interface of the standard Multicall3
 *         batching contract that tools expect at 0xcA11bde05977b3631167028862bE2a173976CA11
 *         (`aggregate3`, `aggregate3Value`: per call a target, whether it may fail, and its calldata;
 *         per call a success flag and the returned bytes), so that the local chains, which cannot reach
 *         a network to copy the deployed one, carry an equivalent at that address.
 * @dev Holds no state and no funds of its own between transactions. A call that is allowed to fail
 *      fails alone: its effects are undone and the next call runs. A call that is not allowed to fail
 *      undoes the whole batch, naming its index and passing its revert data on.
 */
contract Multicall {
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Call3Value {
        address target;
        bool allowFailure;
        uint256 value;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    error CallFailed(uint256 index, bytes returnData);
    error ValueMismatch(uint256 sent, uint256 spent);

    /// @notice Runs `calls` in order; payable like the standard interface, the coin stays here.
    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory results) {
        uint256 count = calls.length;
        results = new Result[](count);
        for (uint256 i = 0; i < count; ++i) {
            Call3 calldata call = calls[i];
            (bool success, bytes memory returnData) = call.target.call(call.callData);
            if (!success && !call.allowFailure) revert CallFailed(i, returnData);
            results[i] = Result(success, returnData);
        }
    }

    /// @notice Runs `calls` in order, each with its own coin value; the values must add up to `msg.value`.
    function aggregate3Value(Call3Value[] calldata calls) external payable returns (Result[] memory results) {
        uint256 count = calls.length;
        results = new Result[](count);
        uint256 spent = 0;
        for (uint256 i = 0; i < count; ++i) {
            Call3Value calldata call = calls[i];
            spent += call.value;
            (bool success, bytes memory returnData) = call.target.call{value: call.value}(call.callData);
            if (!success && !call.allowFailure) revert CallFailed(i, returnData);
            results[i] = Result(success, returnData);
        }
        if (spent != msg.value) revert ValueMismatch(msg.value, spent);
    }

    /// @notice The current block's number, for reads batched with it.
    function getBlockNumber() external view returns (uint256) {
        return block.number;
    }
}
