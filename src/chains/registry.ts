/**
 * The chain families the solver knows. Adding a family is one import and one entry here: the types of
 * its configuration, keys and transaction terms, and everything generic code asks of it, follow.
 */
import { bitcoinFamily } from "./bitcoin/family-module.js";
import { evmFamily } from "./evm/family-module.js";
import type { ChainFamilyModule, ChainStart, TermsCodec } from "./family-module.js";
import { solanaFamily } from "./solana/family-module.js";
import { starknetFamily } from "./starknet/family-module.js";
import { suiFamily } from "./sui/family-module.js";

export const CHAIN_FAMILIES = [evmFamily, bitcoinFamily, solanaFamily, starknetFamily, suiFamily] as const;

type KnownFamily = (typeof CHAIN_FAMILIES)[number];

export type ChainFamily = KnownFamily["name"];

/** A configured chain of any known family. */
export type ChainConfig = KnownFamily extends { create(start: ChainStart<infer Config>): unknown }
  ? Config
  : never;

/** Family-specific facts of a signed transaction, typed per family and journaled with it. */
export type TxTerms = KnownFamily extends { terms: TermsCodec<infer Terms> } ? Terms : never;

/** The solver's private key per family, in its stored form; "" for a family no configured chain has. */
export type SolverKeys = Record<ChainFamily, string>;

/** The module of a chain's family. */
export function familyOf<F extends ChainFamily>(family: F): ChainFamilyModule<F> {
  const found = CHAIN_FAMILIES.find((module) => module.name === family);
  if (found === undefined) throw new Error(`no chain family "${family}"`);
  return found as unknown as ChainFamilyModule<F>;
}
