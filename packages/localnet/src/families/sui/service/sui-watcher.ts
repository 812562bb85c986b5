/**
 * Watches swaps on one Sui chain. The order is the registry's dynamic field under its order id (the swap
 * id's 32 bytes): its terms, whether it is fulfilled, and the last transaction that changed it. While the
 * order is open that transaction is its initiate; once redeemed or refunded it is the redeem or refund,
 * whose event of exactly `<package>::AtomicSwap::Redeemed` carries the secret. An initiate not seen
 * before the order was fulfilled is found among the package's `Initiated` events, paged from a kept
 * cursor so no page is read twice. Confirmations count checkpoints: a transaction is reported once it is
 * in a checkpoint at or below the poll's tip.
 */
import { createHash } from "node:crypto";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { ChainWatcher, SwapFacts, TxFact } from "../../../service/chains/service-chain.js";
import type { SuiEventCursor, SuiEvent, SuiNodeRpc, SuiTransaction } from "../sui-node-rpc.js";

type Parsed = Record<string, unknown>;

/** A `vector<u8>` of an event's `parsedJson` (an array of byte values) as hex, or null. */
function bytesHex(value: unknown): string | null {
  if (!Array.isArray(value) || !value.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) return null;
  return Buffer.from(value as number[]).toString("hex");
}

export class SuiWatcher implements ChainWatcher {
  /** Order id (hex) → digest of its initiate, from the `Initiated` events paged so far. */
  readonly #initiates = new Map<string, string>();
  #initiatedCursor: SuiEventCursor | null = null;

  constructor(
    private readonly rpc: SuiNodeRpc,
    private readonly packageId: string,
    /** The registry of an asset id `<chain>:<symbol>`. */
    private readonly registryOf: (assetId: string) => string,
  ) {}

  tipHeight(): Promise<bigint> {
    return this.rpc.latestCheckpoint();
  }

  headHeight(): Promise<bigint> {
    return this.tipHeight();
  }

  async observe(swap: SwapRecord, _fromBlock: bigint, tip: bigint): Promise<SwapFacts> {
    const field = await this.rpc.orderField(this.registryOf(swap.asset), Buffer.from(swap.swap_id, "hex"));
    if (field === null) return { onChain: null };
    const { initiator, redeemer, timelock, amount } = field;
    const facts: SwapFacts = { onChain: { initiator, redeemer, timelock, amount } };

    if (swap.initiate_tx_hash === "") {
      const digest = field.isFulfilled ? await this.#initiateOf(swap.swap_id) : field.previousTransaction;
      const tx = digest === undefined ? null : await this.rpc.transaction(digest);
      if (tx !== null && this.#eventOf(tx, "Initiated", swap.swap_id) !== undefined) {
        const fact = txFact(tx, tip);
        if (fact !== null) facts.initiate = { ...fact, filledAmount: amount };
      }
    }
    if (field.isFulfilled && swap.redeem_tx_hash === "" && swap.refund_tx_hash === "") {
      const tx = await this.rpc.transaction(field.previousTransaction);
      const fact = tx === null ? null : txFact(tx, tip);
      if (tx !== null && fact !== null) {
        const redeemed = this.#eventOf(tx, "Redeemed", swap.swap_id);
        const secret = redeemed === undefined ? null : bytesHex(redeemed.secret);
        if (secret !== null && sha256Hex(secret) === swap.secret_hash) facts.redeem = { ...fact, secret };
        else if (this.#eventOf(tx, "Refunded", swap.swap_id) !== undefined) facts.refund = fact;
      }
    }
    return facts;
  }

  /** The order's event of this name in the transaction, emitted by the configured package only. */
  #eventOf(tx: SuiTransaction, name: string, orderIdHex: string): Parsed | undefined {
    const type = `${this.packageId}::AtomicSwap::${name}`;
    return tx.events.find((e: SuiEvent) => e.type === type && bytesHex(e.parsedJson.order_id) === orderIdHex)
      ?.parsedJson;
  }

  /** The initiate of an order from the `Initiated` events, reading only pages not read before. */
  async #initiateOf(orderIdHex: string): Promise<string | undefined> {
    const type = `${this.packageId}::AtomicSwap::Initiated`;
    let more = !this.#initiates.has(orderIdHex);
    while (more) {
      const page = await this.rpc.eventsPage(type, this.#initiatedCursor);
      for (const event of page.events) {
        const id = bytesHex(event.parsedJson.order_id);
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
function txFact(tx: SuiTransaction, tip: bigint): TxFact | null {
  if (tx.status !== "success" || tx.checkpoint === null || tx.checkpoint > tip) return null;
  return {
    txHash: tx.digest,
    blockNumber: tx.checkpoint,
    timestamp: tx.timestampMs === null ? null : new Date(tx.timestampMs).toISOString(),
  };
}

function sha256Hex(hex: string): string {
  return createHash("sha256").update(Buffer.from(hex, "hex")).digest("hex");
}
