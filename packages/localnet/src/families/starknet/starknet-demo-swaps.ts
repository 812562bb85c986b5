/** The demo's swaps from Starknet: the user approves the HTLC and signs `Initiate`, the service relays it. */
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
];
