/** The Starknet family as the rest of the solver sees it (src/chains/family-module.ts). */
import type { ChainFamilyModule } from "../family-module.js";
import { starknetCoin, starknetConfigSpec, type StarknetChainConfig } from "./config.js";
import { createStarknetFamily } from "./family.js";
import { newStarkKey, readStarkKey, starkPublicKey } from "./key.js";
import { checkStarknetChainOnline } from "./online-check.js";
import { starknetTermsCodec, type StarknetTxTerms } from "./tx-terms.js";

/** FRI: STRK has 18 decimals. */
const STARKNET_COIN_DECIMALS = 18;

export const starknetFamily: ChainFamilyModule<"starknet", StarknetChainConfig, StarknetTxTerms> = {
  ...starknetConfigSpec,
  coin: starknetCoin,
  coinDecimals: STARKNET_COIN_DECIMALS,
  terms: starknetTermsCodec,
  checkOnline: checkStarknetChainOnline,
  publicAccount: (key, config) => {
    const reading = readStarkKey(key);
    if ("problem" in reading) throw new Error(`the Starknet key ${reading.problem}`);
    // The account's address depends on the class and salt it was deployed with: only the config tells it.
    const publicKey = starkPublicKey(reading.key);
    const account: Record<string, string> = { publicKey };
    if (config !== undefined) account.account = config.accountAddress;
    return account;
  },
  newKey: newStarkKey,
  create: ({ config, key, journal, logger }) => {
    const family = createStarknetFamily({
      config,
      key,
      journal,
      positions: journal.followPositions(config.name),
      logger,
    });
    return {
      config,
      reader: family.reader,
      executor: family.executor,
      party: family.party,
      // Each fill approves exactly its amount in the same transaction: nothing to set up.
      prepare: async () => undefined,
    };
  },
};
