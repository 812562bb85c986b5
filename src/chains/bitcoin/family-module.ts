/** The Bitcoin family as the rest of the solver sees it (src/chains/family-module.ts). */
import type { ChainFamilyModule } from "../family-module.js";
import { bitcoinCoin, bitcoinConfigSpec, type BitcoinChainConfig } from "./config.js";
import { randomBytes } from "node:crypto";
import { readSecp256k1Key } from "../secp256k1-key.js";
import { createBitcoinFamily } from "./family.js";
import { BitcoinKey } from "./keys.js";
import { bitcoinNetwork, type BitcoinNetworkName } from "./network.js";
import { bitcoinTermsCodec, type BitcoinTxTerms } from "./tx-terms.js";
import { checkBitcoinChainOnline } from "./online-check.js";

/** Satoshis: the chain's one coin has 8 decimals. */
const BITCOIN_COIN_DECIMALS = 8;

export const bitcoinFamily: ChainFamilyModule<"bitcoin", BitcoinChainConfig, BitcoinTxTerms> = {
  ...bitcoinConfigSpec,
  coin: bitcoinCoin,
  coinDecimals: BITCOIN_COIN_DECIMALS,
  terms: bitcoinTermsCodec,
  checkOnline: checkBitcoinChainOnline,
  publicAccount: (key, config): Record<string, string> => {
    const bitcoinKey = BitcoinKey.fromHex(key);
    const addressOn = (network: BitcoinNetworkName) =>
      bitcoinKey.walletPayment(bitcoinNetwork(network)).address;
    if (config !== undefined) return { xOnlyKey: bitcoinKey.xOnlyHex, address: addressOn(config.network) };
    return {
      xOnlyKey: bitcoinKey.xOnlyHex,
      mainnetAddress: addressOn("mainnet"),
      testnetAddress: addressOn("testnet"),
      regtestAddress: addressOn("regtest"),
    };
  },
  newKey: () => {
    // A 32-byte draw outside the group order is as good as impossible; drawn again if it ever comes.
    for (;;) {
      const read = readSecp256k1Key(randomBytes(32).toString("hex"));
      if ("value" in read) return read.value;
    }
  },
  create: ({ config, key, journal, logger }) => {
    const family = createBitcoinFamily({ config, privateKeyHex: key, journal, logger });
    return {
      config,
      reader: family.reader,
      executor: family.executor,
      party: family.party,
      // Not awaited: the walk can take minutes on mainnet and the first address read waits for it anyway,
      // but begun now it is not paid in the middle of the first burst of orders.
      prepare: async () => {
        family.backend.warmUp?.().catch((error: unknown) => {
          logger.warn(
            { chain: config.name, err: error },
            "bitcoin index warm-up failed; the first read walks it",
          );
        });
      },
    };
  },
};
