/**
 * Watches swaps on one Sui chain, reading as the solver's Sui family does (`SuiReader.storedOrder`,
 * `SuiRpc`). The order is the registry's dynamic field under its order id (the swap id's 32 bytes): its
 * terms, whether it is fulfilled, and the last transaction that changed it. While the order is open that
 * transaction is its initiate; once redeemed or refunded it is the redeem or refund, whose event of
 * exactly `<package>::AtomicSwap::Redeemed` carries the secret. An initiate not seen before the order was
 * fulfilled is found among the package's `Initiated` events, paged from a kept cursor so no page is read
 * twice. Confirmations count checkpoints: a transaction is reported once it is in a checkpoint at or
 * below the poll's tip.
 */
import { revealedSuiSecret, type SuiReader } from "htlc-solver/chains/sui/reader.js";
import type { SuiRpc } from "htlc-solver/chains/sui/rpc.js";
import {
  redeemedJsonSchema,
  refundedJsonSchema,
  type TransactionResponse,
} from "htlc-solver/chains/sui/rpc-schemas.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { ChainWatcher, SwapFacts, TxFact } from "../../../service/chains/service-chain.js";
import { initiatedEventsPage, type SuiEventCursor } from "./sui-events-page.js";

/** The order id (hex) a `vector<u8>` of an event's `parsedJson` names, or null. */
function orderIdOfJson(json: unknown): string | null {
  const parsed = refundedJsonSchema.safeParse(json);
  return parsed.success ? Buffer.from(parsed.data.order_id).toString("hex") : null;
}

export class SuiWatcher implements ChainWatcher {
  /** Order id (hex) → digest of its initiate, from the `Initiated` events paged so far. */
  readonly #initiates = new Map<string, string>();
  #initiatedCursor: SuiEventCursor | null = null;

  constructor(
    private readonly rpc: SuiRpc,
    private readonly reader: SuiReader,
    private readonly packageId: string,
  ) {}

  tipHeight(): Promise<bigint> {
    return this.rpc.latestCheckpoint();
  }

  headHeight(): Promise<bigint> {
    return this.tipHeight();
  }

  async observe(swap: SwapRecord, _fromBlock: bigint, tip: bigint): Promise<SwapFacts> {
    const target = await this.reader.targets.of(swap.asset);
    const order = await this.reader.storedOrder(target, Buffer.from(swap.swap_id, "hex"));
    if (order === null) return { onChain: null };
    const { initiator, redeemer, timelock, amount } = order;
    const facts: SwapFacts = { onChain: { initiator, redeemer, timelock, amount } };

    if (swap.initiate_tx_hash === "") {
      const digest = order.isFulfilled ? await this.#initiateOf(swap.swap_id) : order.previousTransaction;
      const tx = digest === undefined ? null : await this.rpc.getTransaction(digest);
      if (tx !== null && this.#eventOf(tx, "Initiated", swap.swap_id) !== undefined) {
        const fact = txFact(tx, tip);
        if (fact !== null) facts.initiate = { ...fact, filledAmount: amount };
      }
    }
    if (order.isFulfilled && swap.redeem_tx_hash === "" && swap.refund_tx_hash === "") {
      const tx = await this.rpc.getTransaction(order.previousTransaction);
      const fact = tx === null ? null : txFact(tx, tip);
      if (tx !== null && fact !== null) {
        const redeemed = redeemedJsonSchema.safeParse(this.#eventOf(tx, "Redeemed", swap.swap_id));
        const secret = redeemed.success ? revealedSuiSecret(redeemed.data.secret, swap.secret_hash) : null;
        if (secret !== null) facts.redeem = { ...fact, secret };
        else if (this.#eventOf(tx, "Refunded", swap.swap_id) !== undefined) facts.refund = fact;
      }
    }
    return facts;
  }

  /** The `parsedJson` of the order's event of this name in the transaction, emitted by the configured package only. */
  #eventOf(tx: TransactionResponse, name: string, orderIdHex: string): unknown {
    const type = `${this.packageId}::AtomicSwap::${name}`;
    return (tx.events ?? []).find((e) => e.type === type && orderIdOfJson(e.parsedJson) === orderIdHex)
      ?.parsedJson;
  }

  /** The initiate of an order from the `Initiated` events, reading only pages not read before. */
  async #initiateOf(orderIdHex: string): Promise<string | undefined> {
    const type = `${this.packageId}::AtomicSwap::Initiated`;
    let more = !this.#initiates.has(orderIdHex);
    while (more) {
      const page = await initiatedEventsPage(this.rpc, type, this.#initiatedCursor);
      for (const event of page.events) {
        const id = orderIdOfJson(event.parsedJson);
        if (event.type === type && id !== null && !this.#initiates.has(id))
          this.#initiates.set(id, event.txDigest);
      }
      this.#initiatedCursor = page.nextCursor;
      more = page.hasNextPage;
    }
    return this.#initiates.get(orderIdHex);
  }
}

/** The transaction as a fact once it succeeded in a checkpoint at or below the tip; null before. */
function txFact(tx: TransactionResponse, tip: bigint): TxFact | null {
  if (tx.effects?.status.status !== "success") return null;
  if (tx.checkpoint === undefined || tx.checkpoint === null || tx.checkpoint > tip) return null;
  return {
    txHash: tx.digest,
    blockNumber: tx.checkpoint,
    timestamp:
      tx.timestampMs === undefined || tx.timestampMs === null
        ? null
        : new Date(Number(tx.timestampMs)).toISOString(),
  };
}
