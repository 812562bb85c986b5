/**
 * The localnet's EVM chains: two anvils with the HTLCs, the test tokens and the price feeds, the solver and
 * the users funded. They mine per transaction while being set up (each deployment and mint is mined at
 * once) and switch to one block a second only when everything is in place.
 */
import {
  ANVIL_PREFUNDED_ACCOUNTS,
  LOCALNET_ROLES,
  localnetAccount,
  localnetUserIndex,
} from "../../accounts.js";
import { LOCALNET_FEED_HEARTBEAT_MS, LOCALNET_PRICES } from "../../localnet-config.js";
import type { LocalnetStartContext, StartedLocalChains } from "../local-chain-family.js";
import { setIntervalMining, startAnvil, type AnvilInstance } from "./anvil.js";
import {
  evmChainDescriptor,
  type LocalEvmChainPlan,
  type LocalnetEvmDescriptor,
  type LocalnetEvmSolverDescriptor,
  type LocalnetEvmUserDescriptor,
} from "./evm-descriptor.js";
import { evmPrices, LOCALNET_TIMING, serviceEvmChain, solverEvmChain } from "./evm-localnet-config.js";
import { setUpEvmChain } from "./evm-setup.js";
import { LocalPriceFeeds } from "./price-feeds.js";

export const LOCALNET_EVM_CHAINS = [
  { name: "ethereum_localnet", chainId: 31337 },
  { name: "arbitrum_localnet", chainId: 31338 },
] as const;

/** Source timelock the service gives orders on the EVM chains, in blocks. */
export interface EvmLocalnetOptions {
  sourceTimelock?: number;
}

export interface EvmLocalnetHandles {
  anvils: Map<string, AnvilInstance>;
  /** The on-chain price feeds on each anvil chain; tests move prices with them. */
  priceFeeds: LocalPriceFeeds;
}

export type StartedEvmChains = StartedLocalChains<
  EvmLocalnetHandles,
  LocalnetEvmDescriptor,
  LocalnetEvmSolverDescriptor,
  LocalnetEvmUserDescriptor
>;

export async function startEvmLocalnet(context: LocalnetStartContext): Promise<StartedEvmChains> {
  const { options, logger } = context;
  const solver = localnetAccount(LOCALNET_ROLES.solver);
  const deployer = localnetAccount(LOCALNET_ROLES.deployer);
  const users = Array.from({ length: context.userCount }, (_, i) => ({
    ...localnetAccount(localnetUserIndex(i)),
    prefunded: localnetUserIndex(i) < ANVIL_PREFUNDED_ACCOUNTS,
  }));
  const anvils = new Map<string, AnvilInstance>();
  let priceFeeds: LocalPriceFeeds | null = null;
  const stop = async (): Promise<void> => {
    await priceFeeds?.stop();
    await Promise.all([...anvils.values()].map((a) => a.stop()));
  };
  let plans: LocalEvmChainPlan[];
  try {
    plans = await Promise.all(
      LOCALNET_EVM_CHAINS.map(async (chain): Promise<LocalEvmChainPlan> => {
        const anvil = await startAnvil({ chainId: chain.chainId });
        anvils.set(chain.name, anvil);
        const { assets, batchExecutor } = await setUpEvmChain({
          chainId: chain.chainId,
          name: chain.name,
          rpcUrl: anvil.rpcUrl,
          deployer,
          funded: [solver.address, ...users.map((u) => u.address)],
          coinless: users.filter((u) => !u.prefunded).map((u) => u.address),
        });
        return { name: chain.name, chainId: chain.chainId, rpcUrl: anvil.rpcUrl, assets, batchExecutor };
      }),
    );
    priceFeeds = await LocalPriceFeeds.deploy({
      chains: plans,
      keeper: localnetAccount(LOCALNET_ROLES.priceKeeper),
      prices: LOCALNET_PRICES,
    });
    for (const plan of plans) {
      await setIntervalMining(plan.rpcUrl, LOCALNET_TIMING.blockTimeMs / 1000);
      logger.info({ chain: plan.name, rpcUrl: plan.rpcUrl }, "local chain ready");
    }
    priceFeeds.startHeartbeat(LOCALNET_FEED_HEARTBEAT_MS);
  } catch (error) {
    await stop();
    throw error;
  }
  const feeds = priceFeeds;
  return {
    handles: { anvils, priceFeeds: feeds },
    descriptor: { chains: plans.map(evmChainDescriptor) },
    solverDescriptor: { evmAddress: solver.address },
    userDescriptors: users.map((u) => ({ address: u.address, privateKey: u.privateKey })),
    assets: plans.flatMap((c) => c.assets.map((a) => ({ chain: c.name, asset: a }))),
    feeds: feeds.feeds,
    solverChains: () => plans.map(solverEvmChain),
    solverKeys: { evm: solver.privateKey },
    prices: (pricing) => evmPrices(plans, pricing),
    serviceChains: () => plans.map((plan) => serviceEvmChain(plan, options.sourceTimelock)),
    solverAddresses: { evm: solver.address },
    stop,
  };
}
