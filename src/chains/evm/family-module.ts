/** The EVM family as the rest of the solver sees it (src/chains/family-module.ts). */
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { viemFeedReader } from "../../pricing/live/chainlink-feed.js";
import type { ChainFamilyModule } from "../family-module.js";
import { evmCoin } from "./assets.js";
import { createEvmPublicClient } from "./client.js";
import { evmConfigSpec, type EvmChainConfig } from "./config.js";
import { createEvmFamily } from "./index.js";
import { resolveServiceAddresses } from "./service-addresses.js";
import { evmTermsCodec, type EvmTxTerms } from "./tx-terms.js";
import { checkEvmChainOnline } from "./online-check.js";

/** Gas is paid in wei of the chain's coin, 18 decimals on every EVM chain. */
const EVM_COIN_DECIMALS = 18;

export const evmFamily: ChainFamilyModule<"evm", EvmChainConfig, EvmTxTerms> = {
  ...evmConfigSpec,
  coin: evmCoin,
  coinDecimals: EVM_COIN_DECIMALS,
  terms: evmTermsCodec,
  publicAccount: (key) => ({ address: privateKeyToAccount(key as Hex).address }),
  newKey: () => generatePrivateKey(),
  priceFeedReader: (config) => viemFeedReader(createEvmPublicClient(config)),
  resolveServiceAddresses: (config, serviceAssets) =>
    resolveServiceAddresses(config, createEvmPublicClient(config), serviceAssets),
  checkOnline: checkEvmChainOnline,
  create: ({ config, key, journal, logger }) => {
    const privateKey = key as Hex;
    const family = createEvmFamily({ config, privateKey, journal, logger });
    return {
      config,
      reader: family.reader,
      executor: family.executor,
      party: privateKeyToAccount(privateKey).address,
      prepare: () => family.executor.prepare(config.assets.map((asset) => asset.id)),
    };
  },
};
