/**
 * The local system's reads of a Sui full node (JSON-RPC, sui-wire.md's shapes) over the project's JSON-RPC
 * endpoint, for the service's watcher and the user's wallet: the latest checkpoint, an order as the
 * registry's dynamic field, a transaction with its events and checkpoint, events by type, balances. Each answer is read field by field; a field of another shape is an error naming
 * the method and the field, never a wrong number.
 */
import { JsonRpcEndpoint, type JsonRpcErrorObject } from "htlc-solver/chains/rpc/json-rpc-endpoint.js";
import { RpcShapeError } from "htlc-solver/chains/rpc/rpc-shape-error.js";

/** A Sui node's error answer (nothing ran): its JSON-RPC code and message. */
export class SuiNodeError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly nodeMessage: string,
  ) {
    super(`${method} failed with ${code} ${nodeMessage}`);
    this.name = "SuiNodeError";
  }
}

/** `sui_getTransactionBlock` of a digest the node does not know. */
const INVALID_PARAMS = -32602;

export interface SuiOrderField {
  isFulfilled: boolean;
  initiator: string;
  redeemer: string;
  amount: bigint;
  /** Clock milliseconds when it was initiated. */
  initiatedAt: bigint;
  timelock: bigint;
  /** The digest of the last transaction that changed the order (its initiate until redeemed or refunded). */
  previousTransaction: string;
}

export interface SuiEvent {
  type: string;
  parsedJson: Record<string, unknown>;
}

export interface SuiTransaction {
  digest: string;
  status: "success" | "failure";
  /** Null until the transaction is in a checkpoint. */
  checkpoint: bigint | null;
  timestampMs: number | null;
  events: SuiEvent[];
}

/** Where a page of events ends: the next page starts after it. */
export interface SuiEventCursor {
  txDigest: string;
  eventSeq: string;
}

/** The node's page cap. */
const EVENTS_PAGE = 50;

type Rec = Record<string, unknown>;

function isRecord(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export class SuiNodeRpc {
  readonly #endpoint: JsonRpcEndpoint;

  constructor(
    private readonly chain: string,
    url: string,
    /** Tests answer for the node. */
    fetchImpl?: typeof fetch,
  ) {
    this.#endpoint = new JsonRpcEndpoint(
      { url, label: `${chain} node`, timeoutMs: 10_000, ...(fetchImpl === undefined ? {} : { fetchImpl }) },
      {
        nodeError: (method: string, error: JsonRpcErrorObject) =>
          new SuiNodeError(method, error.code, error.message),
      },
    );
  }

  async latestCheckpoint(): Promise<bigint> {
    const method = "sui_getLatestCheckpointSequenceNumber";
    return this.#decimal(method, "result", await this.#endpoint.request(method, []));
  }

  /** The order under `orderId` in the registry, or null when the registry has no such field. */
  async orderField(registryId: string, orderId: Uint8Array): Promise<SuiOrderField | null> {
    const method = "suix_getDynamicFieldObject";
    const answer = await this.#endpoint.request(method, [
      registryId,
      { type: "vector<u8>", value: Array.from(orderId) },
    ]);
    if (!isRecord(answer)) throw this.#shape(method, "result is not an object");
    if (isRecord(answer.error)) {
      if (answer.error.code === "dynamicFieldNotFound") return null;
      throw new SuiNodeError(method, 0, JSON.stringify(answer.error));
    }
    const data = answer.data;
    if (!isRecord(data)) throw this.#shape(method, "data is missing");
    const content = data.content;
    const fields = isRecord(content) && isRecord(content.fields) ? content.fields : null;
    const value = fields !== null && isRecord(fields.value) ? fields.value : null;
    const order = value !== null && isRecord(value.fields) ? value.fields : null;
    if (order === null) throw this.#shape(method, "data.content.fields.value.fields is missing");
    const where = "data.content.fields.value.fields";
    if (typeof order.is_fulfilled !== "boolean") throw this.#shape(method, `${where}.is_fulfilled`);
    return {
      isFulfilled: order.is_fulfilled,
      initiator: this.#address(method, `${where}.initiator`, order.initiator),
      redeemer: this.#address(method, `${where}.redeemer`, order.redeemer),
      amount: this.#decimal(method, `${where}.amount`, order.amount),
      initiatedAt: this.#decimal(method, `${where}.initiated_at`, order.initiated_at),
      timelock: this.#decimal(method, `${where}.timelock`, order.timelock),
      previousTransaction: this.#digest(method, "data.previousTransaction", data.previousTransaction),
    };
  }

  /** The transaction with its events, or null when the node does not know its digest. */
  async transaction(digest: string): Promise<SuiTransaction | null> {
    const method = "sui_getTransactionBlock";
    let answer: unknown;
    try {
      answer = await this.#endpoint.request(method, [digest, { showEffects: true, showEvents: true }]);
    } catch (error) {
      if (error instanceof SuiNodeError && error.code === INVALID_PARAMS) return null;
      throw error;
    }
    if (!isRecord(answer)) throw this.#shape(method, "result is not an object");
    const effects = answer.effects;
    const status = isRecord(effects) && isRecord(effects.status) ? effects.status.status : undefined;
    if (status !== "success" && status !== "failure") throw this.#shape(method, "effects.status.status");
    if (!Array.isArray(answer.events)) throw this.#shape(method, "events");
    const events = answer.events.map((event, i): SuiEvent => {
      if (!isRecord(event) || typeof event.type !== "string" || !isRecord(event.parsedJson)) {
        throw this.#shape(method, `events[${i}] has no type or parsedJson`);
      }
      return { type: event.type, parsedJson: event.parsedJson };
    });
    return {
      digest: this.#digest(method, "digest", answer.digest),
      status,
      checkpoint:
        answer.checkpoint === undefined || answer.checkpoint === null
          ? null
          : this.#decimal(method, "checkpoint", answer.checkpoint),
      timestampMs:
        answer.timestampMs === undefined || answer.timestampMs === null
          ? null
          : Number(this.#decimal(method, "timestampMs", answer.timestampMs)),
      events,
    };
  }

  /**
   * One page of the events of a Move event type, oldest first, after `cursor` (null: from the first);
   * the cursor to resume from is the page's `nextCursor`, or the old one when the page was empty.
   */
  async eventsPage(
    eventType: string,
    cursor: SuiEventCursor | null,
  ): Promise<{
    events: (SuiEvent & { txDigest: string })[];
    nextCursor: SuiEventCursor | null;
    hasNextPage: boolean;
  }> {
    const method = "suix_queryEvents";
    const answer = await this.#endpoint.request(method, [
      { MoveEventType: eventType },
      cursor,
      EVENTS_PAGE,
      false,
    ]);
    if (!isRecord(answer) || !Array.isArray(answer.data)) throw this.#shape(method, "data");
    const events = answer.data.map((event, i) => {
      if (
        !isRecord(event) ||
        typeof event.type !== "string" ||
        !isRecord(event.parsedJson) ||
        !isRecord(event.id)
      ) {
        throw this.#shape(method, `data[${i}] has no id, type or parsedJson`);
      }
      return {
        type: event.type,
        parsedJson: event.parsedJson,
        txDigest: this.#digest(method, `data[${i}].id.txDigest`, event.id.txDigest),
      };
    });
    const next = answer.nextCursor;
    let nextCursor: SuiEventCursor | null = null;
    if (isRecord(next)) {
      if (typeof next.eventSeq !== "string") throw this.#shape(method, "nextCursor.eventSeq");
      nextCursor = {
        txDigest: this.#digest(method, "nextCursor.txDigest", next.txDigest),
        eventSeq: next.eventSeq,
      };
    } else if (next !== null && next !== undefined) {
      throw this.#shape(method, "nextCursor");
    }
    if (typeof answer.hasNextPage !== "boolean") throw this.#shape(method, "hasNextPage");
    return { events, nextCursor: nextCursor ?? cursor, hasNextPage: answer.hasNextPage };
  }

  /** An owner's total balance of a coin type. */
  async balance(owner: string, coinType: string): Promise<bigint> {
    const method = "suix_getBalance";
    const answer = await this.#endpoint.request(method, [owner, coinType]);
    if (!isRecord(answer)) throw this.#shape(method, "result is not an object");
    return this.#decimal(method, "totalBalance", answer.totalBalance);
  }

  #decimal(method: string, field: string, value: unknown): bigint {
    if (typeof value !== "string" || !/^[0-9]{1,78}$/.test(value)) {
      throw this.#shape(method, `${field} is not a decimal string`);
    }
    return BigInt(value);
  }

  #address(method: string, field: string, value: unknown): string {
    if (typeof value !== "string" || !/^0x[0-9a-f]{64}$/.test(value)) {
      throw this.#shape(method, `${field} is not a Sui address`);
    }
    return value;
  }

  #digest(method: string, field: string, value: unknown): string {
    if (typeof value !== "string" || !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) {
      throw this.#shape(method, `${field} is not a transaction digest`);
    }
    return value;
  }

  #shape(method: string, issue: string): RpcShapeError {
    return new RpcShapeError(this.chain, method, issue);
  }
}
