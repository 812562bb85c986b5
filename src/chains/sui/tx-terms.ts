/**
 * What a Sui transaction was signed with: its gas price and budget (MIST), the most it can be charged,
 * and the owned objects it takes (gas coins and coins it spends), each `id@version`. An owned object is
 * in at most one live transaction (executor's object locks); the journal's live attempts give the locks
 * back after a restart.
 */
import type { TermsCodec } from "../family-module.js";

export interface SuiTxTerms {
  family: "sui";
  gasPrice: bigint;
  gasBudget: bigint;
  /** Owned objects the transaction takes, `0x…@version`. */
  ownedInputs: string[];
  /** MIST of the coin sent out of the solver's wallet by the transaction's calls (an initiate's amount). */
  coinOut: bigint;
  /** The coin type `coinOut` is in. */
  coinType: string;
}

/** Sui's terms were typed from its first journaled transaction: no older form to read. */
export const suiTermsCodec: TermsCodec<SuiTxTerms> = {};
