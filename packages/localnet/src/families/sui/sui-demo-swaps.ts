/** The demo's swap from Sui: the user sends the initiate's programmable transaction, as the service answers it. */
import type { LocalDemoSwap } from "../local-user-family.js";
import type { SuiUserMembers } from "./user-sui-part.js";

export const SUI_DEMO_SWAPS: readonly LocalDemoSwap<SuiUserMembers>[] = [
  {
    position: 13,
    from: "sui_localnet:sui",
    to: "bitcoin_regtest:btc",
    amount: 50_000_000_000n,
    user: 0,
    method: () => "the user signs and sends the initiate's programmable transaction (ptb_bytes)",
    initiate: (user, order) => user.initiateSui(order),
  },
];
