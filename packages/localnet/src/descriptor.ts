import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { LocalFeed } from "./families/local-chain-family.js";
import type { StartedLocalnetFamilies } from "./families/registry.js";

/**
 * What `solver localnet` writes to `.localnet/localnet.json`: everything a client needs to swap on it.
 * Each family adds its chains at the top level, its solver address to `solver` and its keys to each user
 * (families/<family>/<family>-descriptor.ts).
 */
export type LocalnetDescriptor = {
  service: { url: string; appId: string };
  solver: { id: string; quoteUrl: string; opsUrl: string } & StartedLocalnetFamilies["solverDescriptor"];
} & StartedLocalnetFamilies["descriptor"] & {
    /** Funded test users. Their keys are public defaults and public labels: localnet only. */
    users: StartedLocalnetFamilies["userDescriptors"];
    /** Where the solver's prices come from: the feeds on the local chains and the local exchange tickers. */
    prices: {
      /** Base URL serving Binance's, Coinbase's and Kraken's ticker paths. */
      tickerUrl: string;
      feeds: LocalFeed[];
    };
  };

export function writeDescriptor(path: string, descriptor: LocalnetDescriptor): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(descriptor, null, 2)}\n`);
}
