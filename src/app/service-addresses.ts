/** The config with every asset address its profile leaves to the service read and checked, before any chain starts. */
import { familyOf } from "../chains/registry.js";
import type { SolverConfig } from "../config/types.js";
import type { OrderbookClient } from "../orderbook/client.js";
import type { ChainAssetInfo } from "../orderbook/types.js";

export async function withServiceAddresses(
  config: SolverConfig,
  orderbook: Pick<OrderbookClient, "assets">,
): Promise<SolverConfig> {
  // Read once, and only when some chain asks.
  let listing: Promise<ChainAssetInfo[]> | undefined;
  const serviceAssets = () => (listing ??= orderbook.assets());
  const chains: SolverConfig["chains"] = [];
  for (const chain of config.chains) {
    const family = familyOf(chain.family);
    if (family.resolveServiceAddresses === undefined) chains.push(chain);
    // The family returns its own config type, which the generic module type cannot state.
    else chains.push((await family.resolveServiceAddresses(chain, serviceAssets)) as typeof chain);
  }
  return { ...config, chains };
}
