/**
 * What a Starknet v3 invoke was signed with: its account nonce, the resource bounds (most units and
 * most price per unit of L1 gas, L2 gas and L1 data gas, prices in FRI) and the tip. The most it can be
 * charged is `maxFee` (Σ max_amount × max_price_per_unit + tip × l2 max_amount), in FRI (STRK's
 * smallest unit); a replacement of the same nonce must raise both the tip and the L2 price by 10%.
 */
import type { TermsCodec } from "../family-module.js";

export interface StarknetResourceBound {
  maxAmount: bigint;
  maxPricePerUnit: bigint;
}

export interface StarknetTxTerms {
  family: "starknet";
  l1Gas: StarknetResourceBound;
  l2Gas: StarknetResourceBound;
  l1DataGas: StarknetResourceBound;
  tip: bigint;
  maxFee: bigint;
}

/** Starknet's terms were typed from its first journaled transaction: no older form to read. */
export const starknetTermsCodec: TermsCodec<StarknetTxTerms> = {};
