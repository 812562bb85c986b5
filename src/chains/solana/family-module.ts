/** The Solana family as the rest of the solver sees it (src/chains/family-module.ts). */
import type { ChainFamilyModule } from "../family-module.js";
import { Keypair } from "@solana/web3.js";
import { solanaCoin } from "./assets.js";
import { solanaConfigSpec, type SolanaChainConfig } from "./config.js";
import { createSolanaFamily } from "./family.js";
import { readSolanaSecretKey, solanaSecretKeyText } from "./keypair.js";
import { solanaTermsCodec, type SolanaTxTerms } from "./tx-terms.js";
import { checkSolanaChainOnline } from "./online-check.js";

/** Lamports: SOL has 9 decimals. */
const SOLANA_COIN_DECIMALS = 9;

export const solanaFamily: ChainFamilyModule<"solana", SolanaChainConfig, SolanaTxTerms> = {
  ...solanaConfigSpec,
  coin: solanaCoin,
  coinDecimals: SOLANA_COIN_DECIMALS,
  terms: solanaTermsCodec,
  checkOnline: checkSolanaChainOnline,
  publicAccount: (key) => {
    const reading = readSolanaSecretKey(key);
    if ("problem" in reading) throw new Error(`the Solana key ${reading.problem}`);
    return { publicKey: reading.keypair.publicKey.toBase58() };
  },
  newKey: () => solanaSecretKeyText(Keypair.generate()),
  create: ({ config, key, journal, logger }) => {
    const family = createSolanaFamily({
      config,
      secretKey: key,
      journal,
      positions: journal.followPositions(config.name),
      logger,
    });
    return {
      config,
      reader: family.reader,
      executor: family.executor,
      party: family.party,
      // Fills pay from the solver's own accounts (SPL: its associated token accounts): nothing to set up.
      prepare: async () => undefined,
    };
  },
};
