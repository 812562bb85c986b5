/**
 * Every event of every included transaction, in chain order, and `starknet_getEvents` over it: block
 * range, address and per-position key alternatives, pages of at most 1000 with opaque continuation tokens.
 */
import { specError, STARKNET_RPC_CODE } from "./errors.js";
import { feltHex } from "./felt.js";

export const MAX_EVENTS_CHUNK = 1000;

export interface LoggedEvent {
  fromAddress: bigint;
  keys: bigint[];
  data: bigint[];
  blockNumber: bigint;
  blockHash: bigint;
  transactionHash: bigint;
}

export interface EventFilter {
  fromBlock: bigint;
  toBlock: bigint;
  address: bigint | undefined;
  keys: bigint[][];
  chunkSize: number;
  continuationToken: string | undefined;
}

const TOKEN_PREFIX = "local-events:";

function encodeToken(position: number): string {
  return Buffer.from(`${TOKEN_PREFIX}${position}`).toString("base64url");
}

function decodeToken(token: string, length: number): number {
  const text = Buffer.from(token, "base64url").toString();
  const match = text.startsWith(TOKEN_PREFIX) ? /^\d+$/.exec(text.slice(TOKEN_PREFIX.length)) : null;
  const position = match === null ? NaN : Number(match[0]);
  if (!Number.isSafeInteger(position) || position > length)
    throw specError(STARKNET_RPC_CODE.INVALID_CONTINUATION_TOKEN, `token ${JSON.stringify(token)}`);
  return position;
}

function matches(event: LoggedEvent, filter: EventFilter): boolean {
  if (event.blockNumber < filter.fromBlock || event.blockNumber > filter.toBlock) return false;
  if (filter.address !== undefined && event.fromAddress !== filter.address) return false;
  return filter.keys.every((alternatives, i) => {
    if (alternatives.length === 0) return true;
    const key = event.keys[i];
    return key !== undefined && alternatives.includes(key);
  });
}

export class EventLog {
  private readonly events: LoggedEvent[] = [];

  append(events: LoggedEvent[]): void {
    this.events.push(...events);
  }

  page(filter: EventFilter) {
    if (filter.chunkSize > MAX_EVENTS_CHUNK)
      throw specError(
        STARKNET_RPC_CODE.PAGE_SIZE_TOO_BIG,
        `chunk_size ${filter.chunkSize} > ${MAX_EVENTS_CHUNK}`,
      );
    if (filter.chunkSize < 1)
      throw specError(STARKNET_RPC_CODE.PAGE_SIZE_TOO_BIG, "chunk_size must be at least 1");
    const start =
      filter.continuationToken === undefined ? 0 : decodeToken(filter.continuationToken, this.events.length);
    const found: LoggedEvent[] = [];
    let position = start;
    for (; position < this.events.length && found.length < filter.chunkSize; position++) {
      const event = this.events[position];
      if (event !== undefined && matches(event, filter)) found.push(event);
    }
    const more = this.events.slice(position).some((event) => matches(event, filter));
    return {
      events: found.map((e) => ({
        from_address: feltHex(e.fromAddress),
        keys: e.keys.map(feltHex),
        data: e.data.map(feltHex),
        block_number: Number(e.blockNumber),
        block_hash: feltHex(e.blockHash),
        transaction_hash: feltHex(e.transactionHash),
      })),
      ...(more ? { continuation_token: encodeToken(position) } : {}),
    };
  }
}
