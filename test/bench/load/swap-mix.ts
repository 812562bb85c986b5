/**
 * The swaps the load benchmark drives, as users of the localnet would: between the two anvil chains both
 * ways, Bitcoin to EVM and EVM to Bitcoin, each source locked by an EIP-712 signature the service relays,
 * by the user's own call on chain, or by a Bitcoin deposit. Order `i` takes kind `i mod 8`, so any N
 * spreads evenly over every kind, and user `i mod users`.
 */
export type InitiateMethod = "signature" | "on-chain" | "bitcoin-deposit";

export interface SwapKind {
  label: string;
  from: string;
  to: string;
  /** Source smallest units: small against the solver's localnet inventory even a thousand times over. */
  amount: bigint;
  initiate: InitiateMethod;
}

export const SWAP_KINDS: readonly SwapKind[] = [
  {
    label: "eth usdc -> arb usdc (signature)",
    from: "ethereum_localnet:usdc",
    to: "arbitrum_localnet:usdc",
    amount: 25_000_000n,
    initiate: "signature",
  },
  {
    label: "arb usdc -> eth usdc (signature)",
    from: "arbitrum_localnet:usdc",
    to: "ethereum_localnet:usdc",
    amount: 20_000_000n,
    initiate: "signature",
  },
  {
    label: "eth eth -> arb usdc (on chain)",
    from: "ethereum_localnet:eth",
    to: "arbitrum_localnet:usdc",
    amount: 10n ** 16n,
    initiate: "on-chain",
  },
  {
    label: "arb wbtc -> eth wbtc (on chain)",
    from: "arbitrum_localnet:wbtc",
    to: "ethereum_localnet:wbtc",
    amount: 100_000n,
    initiate: "on-chain",
  },
  {
    label: "btc -> arb wbtc (deposit)",
    from: "bitcoin_regtest:btc",
    to: "arbitrum_localnet:wbtc",
    amount: 100_000n,
    initiate: "bitcoin-deposit",
  },
  {
    label: "eth wbtc -> btc (signature)",
    from: "ethereum_localnet:wbtc",
    to: "bitcoin_regtest:btc",
    amount: 100_000n,
    initiate: "signature",
  },
  {
    label: "btc -> eth usdc (deposit)",
    from: "bitcoin_regtest:btc",
    to: "ethereum_localnet:usdc",
    amount: 50_000n,
    initiate: "bitcoin-deposit",
  },
  {
    label: "arb eth -> btc (on chain)",
    from: "arbitrum_localnet:eth",
    to: "bitcoin_regtest:btc",
    amount: 10n ** 16n,
    initiate: "on-chain",
  },
];

export interface PlannedSwap {
  index: number;
  kind: SwapKind;
  user: number;
}

export function planSwaps(orders: number, users: number): PlannedSwap[] {
  return Array.from({ length: orders }, (_, index) => ({
    index,
    kind: SWAP_KINDS[index % SWAP_KINDS.length] as SwapKind,
    user: index % users,
  }));
}

/** The chain of an asset id `<chain>:<symbol>`. */
export function chainOfAsset(assetId: string): string {
  return assetId.split(":")[0] ?? assetId;
}
