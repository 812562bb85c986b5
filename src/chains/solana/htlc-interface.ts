/**
 * The one seam between the solver's Solana code and the version of the HTLC programs a chain runs
 * (`programVersion`): where a swap lives, what its account stores, and the instructions that move it. The
 * reader and the executor ask only this; `current` and `legacy` answer (docs/solana-programs.md).
 */
import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import {
  fillInstruction,
  instantRefundInstruction,
  redeemInstruction,
  refundInstruction,
  type StoredParties,
} from "./action-instructions.js";
import type { SolanaAsset } from "./assets.js";
import { SolanaDecodeError, type HtlcProgramKind } from "./errors.js";
import { amountAt } from "./initiate-data.js";
import { legacyHtlcInterface } from "./legacy/legacy-interface.js";
import type { SolanaProgramVersion } from "./program-version.js";
import type { SolanaAccount } from "./rpc.js";
import { decodeNativeSwapAccount, decodeSplSwapAccount } from "./swap-account.js";
import { swapAccountOf } from "./swap-params.js";
import type { SwapTerms } from "./swap-terms.js";
import type { StoredSwap } from "./stored-swap.js";

export interface SolanaHtlcInterface {
  readonly version: SolanaProgramVersion;
  /** The swap account (native) or swap data (SPL) the terms live at. */
  swapAddress(asset: SolanaAsset, terms: SwapTerms): PublicKey;
  /**
   * The swap at `address`, or null for anything that is not a swap of the asset's program (lamports
   * someone sent there, a closed account). A program account that does not decode is an error.
   */
  decodeSwap(asset: SolanaAsset, address: PublicKey, account: SolanaAccount): StoredSwap | null;
  /** Bytes of a swap account, for its rent. */
  swapSpace(kind: HtlcProgramKind): number;
  /** The amount an initiate instruction's data locks; null for any other instruction. */
  initiateAmount(kind: HtlcProgramKind, data: Uint8Array): bigint | null;
  /** The solver's fill: it initiates, funds and pays the rent. */
  fill(asset: SolanaAsset, terms: SwapTerms, solver: PublicKey): TransactionInstruction;
  redeem(asset: SolanaAsset, swap: StoredParties, secret: Uint8Array): TransactionInstruction;
  refund(asset: SolanaAsset, swap: StoredParties): TransactionInstruction;
  instantRefund(asset: SolanaAsset, swap: StoredParties): TransactionInstruction;
}

/** Byte offset of swap_amount in the current initiate's data: discriminator, redeemer, refundee, hash. */
const CURRENT_AMOUNT_OFFSET = 8 + 32 + 32 + 32;

const currentHtlcInterface: SolanaHtlcInterface = {
  version: "current",
  swapAddress: swapAccountOf,
  decodeSwap(asset, address, account) {
    if (!account.owner.equals(asset.programId) || account.data.length === 0) return null;
    if (asset.mint === null) return { address, ...decodeNativeSwapAccount(account.data) };
    const swap = decodeSplSwapAccount(account.data);
    if (!swap.mint.equals(asset.mint)) {
      throw new SolanaDecodeError(
        `swap data ${address.toBase58()} holds mint ${swap.mint.toBase58()}, not ${asset.id}'s`,
      );
    }
    return { address, ...swap };
  },
  swapSpace: (kind) => (kind === "native" ? 161 : 194),
  initiateAmount: (_kind, data) => amountAt(data, CURRENT_AMOUNT_OFFSET),
  fill: fillInstruction,
  redeem: redeemInstruction,
  refund: refundInstruction,
  instantRefund: instantRefundInstruction,
};

export function htlcInterfaceOf(version: SolanaProgramVersion): SolanaHtlcInterface {
  return version === "legacy" ? legacyHtlcInterface : currentHtlcInterface;
}
