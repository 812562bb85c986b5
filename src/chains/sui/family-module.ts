/** The Sui family as the rest of the solver sees it (src/chains/family-module.ts). */
import type { ChainFamilyModule } from "../family-module.js";
import { suiCoin, suiConfigSpec, type SuiChainConfig } from "./config.js";
import { createSuiFamily } from "./family.js";
import { newSuiKey, suiAddressOfKey } from "./key.js";
import { suiTermsCodec, type SuiTxTerms } from "./tx-terms.js";

/** MIST: SUI has 9 decimals. */
const SUI_COIN_DECIMALS = 9;

export const suiFamily: ChainFamilyModule<"sui", SuiChainConfig, SuiTxTerms> = {
  ...suiConfigSpec,
  coin: suiCoin,
  coinDecimals: SUI_COIN_DECIMALS,
  terms: suiTermsCodec,
  // The address is the key's on every Sui network.
  publicAccount: (key) => ({ address: suiAddressOfKey(key) }),
  newKey: newSuiKey,
  create: ({ config, key, journal, logger }) => {
    const family = createSuiFamily({ config, key, journal, logger });
    return {
      config,
      reader: family.reader,
      executor: family.executor,
      party: family.party,
      // Registries' shared versions are read at the first action on each; no allowances to set.
      prepare: async () => undefined,
    };
  },
};
