/** The demo's swaps from an EVM chain: the user locks the source with a relayed signature or on chain. */
import type { LocalDemoSwap } from "../local-user-family.js";
import type { EvmUserMembers } from "./user-evm.js";

type EvmDemoSwap = LocalDemoSwap<EvmUserMembers>;
type SwapTerms = Pick<EvmDemoSwap, "position" | "from" | "to" | "amount" | "user">;

function bySignature(terms: SwapTerms): EvmDemoSwap {
  return {
    ...terms,
    method: () => "approve, then an EIP-712 signature the service relays",
    initiate: (user, order) => user.initiateWithSignature(order),
  };
}

function onChain(terms: SwapTerms): EvmDemoSwap {
  return {
    ...terms,
    method(user) {
      const native = user.assetOf(terms.from).asset.tokenAddress === "native";
      return native ? "the user locks the native coin on chain" : "approve, then the user initiates on chain";
    },
    initiate: (user, order) => user.initiateOnChain(order),
  };
}

export const EVM_DEMO_SWAPS: readonly EvmDemoSwap[] = [
  bySignature({
    position: 1,
    from: "ethereum_localnet:usdc",
    to: "arbitrum_localnet:usdc",
    amount: 250_000_000n,
    user: 0,
  }),
  onChain({
    position: 2,
    from: "ethereum_localnet:eth",
    to: "arbitrum_localnet:usdc",
    amount: 10n ** 17n,
    user: 1,
  }),
  onChain({
    position: 3,
    from: "arbitrum_localnet:usdc",
    to: "ethereum_localnet:usdc",
    amount: 100_000_000n,
    user: 2,
  }),
  onChain({
    position: 5,
    from: "ethereum_localnet:wbtc",
    to: "bitcoin_regtest:btc",
    amount: 1_000_000n,
    user: 1,
  }),
  bySignature({
    position: 7,
    from: "ethereum_localnet:usdc",
    to: "solana_localnet:usdc",
    amount: 150_000_000n,
    user: 0,
  }),
  onChain({
    position: 10,
    from: "ethereum_localnet:wbtc",
    to: "starknet_localnet:wbtc",
    amount: 1_000_000n,
    user: 0,
  }),
  bySignature({
    position: 14,
    from: "arbitrum_localnet:usdc",
    to: "sui_localnet:sui",
    amount: 150_000_000n,
    user: 2,
  }),
];
