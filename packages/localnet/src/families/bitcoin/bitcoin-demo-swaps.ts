/** The demo's swaps from Bitcoin: the user pays the order's deposit address. */
import type { LocalDemoSwap } from "../local-user-family.js";
import type { BitcoinUserMembers } from "./user-bitcoin-part.js";

type BitcoinDemoSwap = LocalDemoSwap<BitcoinUserMembers>;

function byDeposit(
  terms: Pick<BitcoinDemoSwap, "position" | "from" | "to" | "amount" | "user">,
): BitcoinDemoSwap {
  return {
    ...terms,
    method: () => "the user pays the order's deposit address",
    initiate: (user, order) => user.fundBitcoinSource(order),
  };
}

export const BITCOIN_DEMO_SWAPS: readonly BitcoinDemoSwap[] = [
  byDeposit({
    position: 4,
    from: "bitcoin_regtest:btc",
    to: "arbitrum_localnet:wbtc",
    amount: 1_000_000n,
    user: 0,
  }),
  byDeposit({
    position: 8,
    from: "bitcoin_regtest:btc",
    to: "solana_localnet:sol",
    amount: 500_000n,
    user: 1,
  }),
  byDeposit({
    position: 11,
    from: "bitcoin_regtest:btc",
    to: "starknet_localnet:wbtc",
    amount: 700_000n,
    user: 2,
  }),
];
