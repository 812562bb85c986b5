// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {HtlcBase} from "./HtlcBase.sol";

/**
 * @title HTLC
 * @notice Hashed timelock contract for one ERC20 token (v3 interface).
 * @dev The initiate variants are payable only so that one ABI serves this contract and NativeHTLC
 *      (e.g. inside a Multicall3 `aggregate3Value` batch); any attached coin is rejected.
 */
contract HTLC is HtlcBase {
    using SafeERC20 for IERC20;

    bytes32 private constant _INITIATE_TYPEHASH =
        keccak256("Initiate(address redeemer,uint256 timelock,uint256 amount,bytes32 secretHash)");

    IERC20 public immutable token;

    error InvalidToken(address token);
    error NativeValueNotAccepted(uint256 value);
    error InvalidInitiatorSignature();

    constructor(address token_) {
        if (token_.code.length == 0) revert InvalidToken(token_);
        token = IERC20(token_);
    }

    /**
     * @notice Anyone submits an order the initiator signed (EIP-712 `Initiate`, EOA or EIP-1271 wallet);
     *         the tokens come from the initiator. Replays hit the duplicate-order check.
     */
    function initiateWithSignature(
        address initiator,
        address redeemer,
        uint256 timelock,
        uint256 amount,
        bytes32 secretHash,
        bytes calldata signature
    ) external {
        bytes32 digest = _hashTypedDataV4(
            keccak256(abi.encode(_INITIATE_TYPEHASH, redeemer, timelock, amount, secretHash))
        );
        if (!SignatureChecker.isValidSignatureNowCalldata(initiator, digest, signature)) {
            revert InvalidInitiatorSignature();
        }
        _lock(initiator, initiator, redeemer, timelock, amount, secretHash);
    }

    function _lock(
        address funder,
        address initiator,
        address redeemer,
        uint256 timelock,
        uint256 amount,
        bytes32 secretHash
    ) internal override {
        if (msg.value != 0) revert NativeValueNotAccepted(msg.value);
        _createOrder(initiator, redeemer, timelock, amount, secretHash);
        token.safeTransferFrom(funder, address(this), amount);
    }

    function _payOut(address to, uint256 amount) internal override {
        token.safeTransfer(to, amount);
    }
}
