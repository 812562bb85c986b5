/**
 * The demo's swaps from Starknet: one the user approves and signs `Initiate` for (the service relays it),
 * one the user approves and initiates itself.
 */
import type { LocalDemoSwap } from "../local-user-family.js";
import type { StarknetUserMembers } from "./user-starknet-part.js";

export const STARKNET_DEMO_SWAPS: readonly LocalDemoSwap<StarknetUserMembers>[] = [
  {
    position: 9,
    from: "starknet_localnet:wbtc",
    to: "arbitrum_localnet:wbtc",
    amount: 1_000_000n,
    user: 2,
    method: () => "approve, then a SNIP-12 signature the service relays",
    initiate: (user, order) => user.initiateStarknetBySignature(order),
  },
  {
    position: 12,
    from: "starknet_localnet:wbtc",
    to: "bitcoin_regtest:btc",
    amount: 600_000n,
    user: 1,
    method: () => "approve and initiate in one Starknet transaction",
    initiate: (user, order) => user.initiateStarknet(order),
  },
];
