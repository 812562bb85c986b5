/** The Sui family as the rest of the solver sees it (src/chains/family-module.ts). */
import type { ChainFamilyModule } from "../family-module.js";
import { SUI_DECIMALS, suiCoin, suiConfigSpec, type SuiChainConfig } from "./config.js";
import { createSuiFamily } from "./family.js";
import { newSuiKey, suiAddressOfKey } from "./key.js";
import { checkSuiChainOnline } from "./online-check.js";
import { suiTermsCodec, type SuiTxTerms } from "./tx-terms.js";

export const suiFamily: ChainFamilyModule<"sui", SuiChainConfig, SuiTxTerms> = {
  ...suiConfigSpec,
  coin: suiCoin,
  coinDecimals: SUI_DECIMALS,
  terms: suiTermsCodec,
  checkOnline: checkSuiChainOnline,
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
