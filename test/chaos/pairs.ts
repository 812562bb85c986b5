/**
 * The swaps the crash loop drives, and how a user makes each: between the two anvil chains, and in both
 * directions between an anvil chain and the Bitcoin regtest chain, SOL and the SPL token on the Solana
 * cluster. A swap belongs to the family of its chain that is not EVM (EVM when both sides are).
 */
import type { Hex } from "viem";
import type { LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../src/orderbook/types.js";
import type { ChainConfig } from "../../src/chains/registry.js";

export type Family = ChainConfig["family"];
export const FAMILIES: readonly Family[] = ["evm", "bitcoin", "solana"];

export interface ChaosPair {
  from: string;
  to: string;
  /** Source amount, smallest units. */
  amount: bigint;
}

/** In this order, so that the first swaps of a short run cover every family: EVM, Bitcoin, Solana. */
export const CHAOS_PAIRS: readonly ChaosPair[] = [
  { from: "ethereum_localnet:usdc", to: "arbitrum_localnet:usdc", amount: 20_000_000n },
  { from: "bitcoin_regtest:btc", to: "arbitrum_localnet:usdc", amount: 100_000n },
  { from: "ethereum_localnet:usdc", to: "solana_localnet:sol", amount: 30_000_000n },
  { from: "arbitrum_localnet:usdc", to: "ethereum_localnet:usdc", amount: 20_000_000n },
  { from: "ethereum_localnet:usdc", to: "bitcoin_regtest:btc", amount: 60_000_000n },
  { from: "solana_localnet:sol", to: "arbitrum_localnet:usdc", amount: 200_000_000n },
  { from: "arbitrum_localnet:usdc", to: "solana_localnet:usdc", amount: 20_000_000n },
  { from: "solana_localnet:usdc", to: "ethereum_localnet:usdc", amount: 20_000_000n },
];

/** The family of each configured chain, by name. */
export function chainFamilies(chains: readonly ChainConfig[]): (chain: string) => Family {
  const byName = new Map(chains.map((c) => [c.name, c.family]));
  return (chain) => {
    const family = byName.get(chain);
    if (family === undefined) throw new Error(`chain ${chain} is not in the solver's config`);
    return family;
  };
}

export const chainOf = (assetId: string): string => assetId.split(":")[0] ?? "";

/** The family a swap between these chains counts for. */
export function swapFamily(familyOf: (chain: string) => Family, from: string, to: string): Family {
  const source = familyOf(chainOf(from));
  return source !== "evm" ? source : familyOf(chainOf(to));
}

/**
 * Whether the user keeps the secret and redeems the destination itself. Not for a Bitcoin destination:
 * a Bitcoin HTLC takes a preimage of any length where an EVM or Solana source takes only 32 bytes, and
 * the solver refuses a client-held secret for such a pair unless its operator accepts that risk
 * (`safety.allowUnenforcedSecretLength`); there the service keeps the secret and redeems for the user.
 */
export function userKeepsSecret(destinationFamily: Family): boolean {
  return destinationFamily !== "bitcoin";
}

/** The user locks the order's source as a wallet of its family would. */
export async function lockSource(user: LocalUser, order: Order, family: Family): Promise<void> {
  switch (family) {
    case "evm":
      await user.initiateWithSignature(order);
      return;
    case "bitcoin":
      await user.fundBitcoinSource(order);
      return;
    case "solana":
      await user.initiateSolana(order);
      return;
  }
}

/** The user redeems the solver's fill with its own secret, revealing it on the destination chain. */
export async function redeemDestination(
  user: LocalUser,
  order: Order,
  secret: Hex,
  family: Family,
): Promise<void> {
  switch (family) {
    case "evm":
      await user.redeemDestination(order, secret);
      return;
    case "bitcoin":
      await user.redeemBitcoinDestination(order, secret);
      return;
    case "solana":
      await user.redeemSolanaDestination(order, secret);
      return;
  }
}
