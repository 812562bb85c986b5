import type { Logger } from "pino";
import { privateKeyToAccount } from "viem/accounts";
import type { Hex } from "viem";
import type { ChainConfig, SolverKeys } from "../config/types.js";
import type { JournalView } from "./chain.js";
import type { FollowPositionsSource } from "./follow-positions.js";
import { createBitcoinFamily } from "./bitcoin/family.js";
import { createEvmFamily } from "./evm/index.js";
import { createSolanaFamily } from "./solana/family.js";
import type { SolverChain } from "../solver/solver-chain.js";

export interface PreparedChain extends SolverChain {
  /** One-time work before the first fill (EVM: batching set up, token allowances for the HTLCs). */
  prepare(): Promise<void>;
}

/** Builds reader and executor of one configured chain from its family. */
export function createChain(
  config: ChainConfig,
  keys: SolverKeys,
  journal: JournalView & FollowPositionsSource,
  logger: Logger,
): PreparedChain {
  switch (config.family) {
    case "evm": {
      const privateKey = keys.evm as Hex;
      const family = createEvmFamily({ config, privateKey, journal, logger });
      return {
        config,
        reader: family.reader,
        executor: family.executor,
        party: privateKeyToAccount(privateKey).address,
        prepare: () => family.executor.prepare(config.assets.map((asset) => asset.id)),
      };
    }
    case "bitcoin": {
      const family = createBitcoinFamily({ config, privateKeyHex: keys.bitcoin, journal, logger });
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
    }
    case "solana": {
      const family = createSolanaFamily({
        config,
        secretKey: keys.solana,
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
    }
  }
}
