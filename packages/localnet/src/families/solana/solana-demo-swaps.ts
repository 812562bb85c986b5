/** The demo's swaps from Solana: the user locks the source with the HTLC program. */
import type { LocalDemoSwap } from "../local-user-family.js";
import type { SolanaUserMembers } from "./user-solana-part.js";

export const SOLANA_DEMO_SWAPS: readonly LocalDemoSwap<SolanaUserMembers>[] = [
  {
    position: 6,
    from: "solana_localnet:sol",
    to: "arbitrum_localnet:eth",
    amount: 2_000_000_000n,
    user: 2,
    method: () => "the user locks it with the Solana HTLC program",
    initiate: (user, order) => user.initiateSolana(order),
  },
];
