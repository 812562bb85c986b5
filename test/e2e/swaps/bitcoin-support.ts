/** Shared predicates and reads of the Bitcoin swap tests on the localnet. */
import type { Order } from "../../../src/orderbook/types.js";
import { waitFor, type TestLocalnet } from "../../support/localnet.js";

export const BTC = "bitcoin_regtest:btc";

/** Both sides redeemed in a block: the user has the destination and the solver the source. */
export const completed = (o: Order): boolean =>
  o.destination_swap.redeem_tx_hash !== "" &&
  o.destination_swap.redeem_block_number !== "0" &&
  o.source_swap.redeem_tx_hash !== "" &&
  o.source_swap.redeem_block_number !== "0";

/** Waits until the solver's journal shows every action of the order confirmed (it follows each round). */
export async function actionsSettled(t: TestLocalnet, orderId: string, kinds: string[]): Promise<void> {
  await waitFor(
    () => {
      const actions = actionsOf(t, orderId);
      return kinds.every((kind) => actions.some(([k, status]) => k === kind && status === "confirmed"));
    },
    `the solver's ${kinds.join(" and ")} of order ${orderId} to confirm`,
  );
}

/** The solver's journaled actions of an order as `[kind, status]` pairs. */
export function actionsOf(t: TestLocalnet, orderId: string): [string, string][] {
  return t.net.solver!.journal.orderActions(orderId).map((a) => [a.kind, a.status]);
}

/** A Bitcoin transaction as the node shows it. */
export function bitcoinTx(t: TestLocalnet, txid: string) {
  return t.net.bitcoin.rpc.getRawTransactionVerbose(txid);
}
