/**
 * What a Sui chain says about an HTLC. An order is a dynamic field of its asset's registry, named by the
 * order id, which commits to both parties, the terms and the registry: the one field is the only lock.
 * Heights are the chain's clock in ms (config.ts): a lock counts from its `initiated_at` once the
 * transaction that last changed it is in a checkpoint `finalityDepth` deep, and is refundable once the
 * clock passes `initiated_at + timelock`. A fulfilled order's secret comes from the transaction that
 * fulfilled it (the field's `previousTransaction`): its `Redeemed` event of exactly the configured
 * package, of this order, whose secret hashes to the order's. No history is paged, so nothing an
 * attacker adds to the module's events can hide it.
 */
import { createHash } from "node:crypto";
import {
  absentHtlc,
  type ChainReader,
  type HtlcLock,
  type HtlcParams,
  type HtlcState,
  type LockSpend,
} from "../chain.js";
import { checkedAnswer } from "../rpc/rpc-shape-error.js";
import { sameMoveType } from "./address.js";
import { SuiTargets } from "./assets.js";
import { SuiActionError } from "./errors.js";
import { computeSuiSwapId, readStatedSuiSwapId } from "./order-id.js";
import {
  orderFieldSchema,
  redeemedJsonSchema,
  refundedJsonSchema,
  type OrderField,
  type TransactionResponse,
} from "./rpc-schemas.js";
import type { SuiSwapTarget } from "./ptb.js";
import type { SuiRpc } from "./rpc.js";
import type { SuiChainConfig } from "./config.js";

/** An order as its registry field holds it. */
export interface StoredSuiOrder {
  isFulfilled: boolean;
  initiator: string;
  redeemer: string;
  amount: bigint;
  initiatedAtMs: bigint;
  timelock: bigint;
  /** The last transaction that changed the field: the initiate, or the redeem or refund after it. */
  previousTransaction: string;
}

interface FoundSpend {
  spend: LockSpend;
  secret: string | null;
}

export class SuiReader implements ChainReader {
  readonly family = "sui" as const;
  /** `redeem` aborts on a secret of any other length (docs/protocol.md, Sui). */
  readonly secretLength = 32;
  readonly userKeyIsDelegate = false;
  readonly chain: string;
  readonly targets: SuiTargets;
  readonly #config: SuiChainConfig;
  readonly #rpc: SuiRpc;

  constructor(config: SuiChainConfig, rpc: SuiRpc, targets: SuiTargets = new SuiTargets(config, rpc)) {
    this.chain = config.name;
    this.#config = config;
    this.#rpc = rpc;
    this.targets = targets;
  }

  /** The chain's clock, ms. */
  tipHeight(): Promise<bigint> {
    return this.#rpc.clockMs();
  }

  computeSwapId(params: HtlcParams): string {
    const asset = this.#config.assets.find((a) => a.id === params.asset);
    if (asset === undefined)
      throw new SuiActionError(`asset ${params.asset} is not configured on Sui chain ${this.chain}`);
    return computeSuiSwapId({ ...params, registry: asset.htlcAddress });
  }

  /** The stated swap id's bytes; a stated id in any other form than the service's is refused. */
  orderIdOf(params: Pick<HtlcParams, "swapId">): Uint8Array {
    const stated = readStatedSuiSwapId(params.swapId);
    if ("problem" in stated) throw new SuiActionError(`${this.chain}: ${stated.problem}`);
    return stated.orderId;
  }

  /** The order at an id in a registry; null when none is. */
  async storedOrder(target: SuiSwapTarget, orderId: Uint8Array): Promise<StoredSuiOrder | null> {
    const answer = await this.#rpc.getOrderField(target.registry.objectId, orderId);
    if (!("data" in answer)) return null;
    const method = "suix_getDynamicFieldObject";
    const orderType = `${target.packageId}::AtomicSwap::Order<${target.coinType}>`;
    const fieldType = `0x2::dynamic_field::Field<vector<u8>, ${orderType}>`;
    const { content, previousTransaction } = answer.data;
    if (content === undefined || !sameMoveType(content.type, fieldType))
      throw new SuiActionError(
        `${this.chain}: ${method} answered a ${content?.type ?? "field without content"}, not ${fieldType}`,
      );
    if (previousTransaction === undefined)
      throw new SuiActionError(`${this.chain}: ${method} answered no previousTransaction`);
    const field: OrderField = checkedAnswer(this.chain, method, content.fields, orderFieldSchema);
    if (!sameMoveType(field.value.type, orderType))
      throw new SuiActionError(`${this.chain}: ${method} answered a ${field.value.type}, not ${orderType}`);
    if (Buffer.from(field.name).toString("hex") !== Buffer.from(orderId).toString("hex"))
      throw new SuiActionError(`${this.chain}: ${method} answered the field of another order id`);
    const order = field.value.fields;
    return {
      isFulfilled: order.is_fulfilled,
      initiator: order.initiator,
      redeemer: order.redeemer,
      amount: order.amount,
      initiatedAtMs: order.initiated_at,
      timelock: order.timelock,
      previousTransaction,
    };
  }

  async readHtlc(params: HtlcParams): Promise<HtlcState> {
    const orderId = this.orderIdOf(params);
    const target = await this.targets.of(params.asset);
    const order = await this.storedOrder(target, orderId);
    if (order === null) return absentHtlc();
    const last = await this.#rpc.getTransaction(order.previousTransaction);
    const final = last !== null && (await this.#isFinal(last));
    const found = order.isFulfilled ? this.#spendOf(last, final, target, params, order) : null;
    // A fulfilled order was initiated before the transaction that fulfilled it: its lock is as final.
    const counted = final || (order.isFulfilled && found !== null && found.spend.height !== null);
    const lock: HtlcLock = {
      id: params.swapId,
      // The id commits to the initiator, whom a refund pays, whoever sent the initiate.
      fundingTx: null,
      value: order.amount,
      height: counted ? order.initiatedAtMs : null,
      // `refund` takes the order once initiated_at + timelock < the clock.
      refundableAtHeight: counted ? order.initiatedAtMs + order.timelock + 1n : null,
      worthSpending: true,
      spend: found?.spend ?? (order.isFulfilled ? { kind: "unknown", txid: null, height: null } : null),
    };
    return {
      locks: [lock],
      onChain: {
        initiator: order.initiator,
        redeemer: order.redeemer,
        timelock: order.timelock,
        amount: order.amount,
      },
      secret: found?.secret ?? null,
      // A fulfilled order stays a field for good: the id is never taken again.
      occupied: true,
    };
  }

  /** The transaction's checkpoint is `finalityDepth` deep. */
  async #isFinal(tx: TransactionResponse): Promise<boolean> {
    if (tx.checkpoint === undefined || tx.checkpoint === null) return false;
    const latest = await this.#rpc.latestCheckpoint();
    return latest - tx.checkpoint + 1n >= BigInt(this.#config.finalityDepth);
  }

  /**
   * How the order was fulfilled, from the transaction that did it: a `Redeemed` event of the configured
   * package for this order with a secret of its hash, or a `Refunded` one; null when neither is there.
   */
  #spendOf(
    tx: TransactionResponse | null,
    final: boolean,
    target: SuiSwapTarget,
    params: HtlcParams,
    order: StoredSuiOrder,
  ): FoundSpend | null {
    if (tx === null || tx.effects?.status.status !== "success") return null;
    const orderHex = params.swapId;
    const height = final && tx.timestampMs !== undefined && tx.timestampMs !== null ? tx.timestampMs : null;
    const base = `${target.packageId}::AtomicSwap::`;
    for (const event of tx.events ?? []) {
      if (sameMoveType(event.type, `${base}Redeemed`)) {
        const parsed = redeemedJsonSchema.safeParse(event.parsedJson);
        if (!parsed.success || Buffer.from(parsed.data.order_id).toString("hex") !== orderHex) continue;
        const secret = revealedSuiSecret(parsed.data.secret, params.secretHash);
        if (secret === null) continue;
        return { spend: { kind: "redeem", txid: tx.digest, height }, secret };
      }
      if (sameMoveType(event.type, `${base}Refunded`)) {
        const parsed = refundedJsonSchema.safeParse(event.parsedJson);
        if (!parsed.success || Buffer.from(parsed.data.order_id).toString("hex") !== orderHex) continue;
        // A refund needs the clock past initiated_at + timelock; a checkpoint no later than that is an instant refund.
        const early =
          tx.timestampMs !== undefined &&
          tx.timestampMs !== null &&
          tx.timestampMs <= order.initiatedAtMs + order.timelock;
        return {
          spend: { kind: early ? "instant_refund" : "refund", txid: tx.digest, height },
          secret: null,
        };
      }
    }
    return null;
  }
}

/** The secret a `Redeemed` event reveals, as hex, only when it is 32 bytes whose sha256 is the hash. */
export function revealedSuiSecret(secret: readonly number[], secretHash: string): string | null {
  if (secret.length !== 32) return null;
  const bytes = Uint8Array.from(secret);
  const digest = createHash("sha256").update(bytes).digest("hex");
  return digest === secretHash.toLowerCase() ? Buffer.from(bytes).toString("hex") : null;
}
