/**
 * What the solver's Bitcoin transactions cost at the fee rate of now: the node's estimate (clamped to the
 * chain's floor and ceiling, as every transaction the executor builds is) times the exact size of each
 * part of the transactions it builds. A fill pays the HTLC output from a wallet input with change; a
 * redeem or refund spends HTLC inputs to one wallet output, many HTLC inputs sharing a transaction.
 */
import type { ActionFeeEstimate, NetworkFeeEstimate } from "../chain.js";
import { BIP341_H_X, bitcoinHtlc, MAX_CSV_BLOCKS } from "./htlc.js";
import { htlcInputWeight } from "./htlc-spend.js";
import type { BitcoinNetworkName } from "./network.js";
import {
  outputWeight,
  P2TR_KEYPATH_INPUT_WEIGHT,
  P2TR_OUTPUT_WEIGHT,
  txOverheadWeight,
  vsizeOfWeight,
} from "./tx-size.js";

/** A P2TR output script: OP_1 and a 32-byte key. */
const P2TR_SCRIPT_LENGTH = 34;

/**
 * An HTLC with the largest scripts the solver meets: any valid x-only key is as long as any other, and
 * the longest timelock takes the most bytes to encode.
 */
function largestHtlc(network: BitcoinNetworkName) {
  return bitcoinHtlc({
    initiatorKey: BIP341_H_X,
    redeemerKey: BIP341_H_X,
    secretHash: "00".repeat(32),
    timelock: MAX_CSV_BLOCKS,
    network,
  });
}

/** Sizes in weight units; a part's fee is its vsize, rounded up, times the rate. */
function priced(perTransaction: number, perAction: number, rateSatVb: bigint): ActionFeeEstimate {
  return {
    perTransaction: BigInt(vsizeOfWeight(perTransaction)) * rateSatVb,
    perAction: BigInt(vsizeOfWeight(perAction)) * rateSatVb,
  };
}

/** Fees at `rateSatVb`; the overhead counts the compact sizes of a transaction of up to 252 inputs. */
export function bitcoinNetworkFees(network: BitcoinNetworkName, rateSatVb: bigint): NetworkFeeEstimate {
  const htlc = largestHtlc(network);
  const spendOverhead = txOverheadWeight(1, 1) + outputWeight(P2TR_SCRIPT_LENGTH);
  return {
    // Wallet input and change are the transaction's; each HTLC output is one fill's.
    fill: priced(
      txOverheadWeight(1, 2) + P2TR_KEYPATH_INPUT_WEIGHT + P2TR_OUTPUT_WEIGHT,
      P2TR_OUTPUT_WEIGHT,
      rateSatVb,
    ),
    redeem: priced(spendOverhead, htlcInputWeight(htlc, "redeem"), rateSatVb),
    refund: priced(spendOverhead, htlcInputWeight(htlc, "refund"), rateSatVb),
  };
}
