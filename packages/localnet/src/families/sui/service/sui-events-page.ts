/**
 * One page of `suix_queryEvents` by Move event type, oldest first, through the solver family's endpoint
 * pool; the family reads no event history (it follows an order's own transactions), so this one query
 * is the service's. Each event is read field by field; another shape is an error naming the field.
 */
import { RpcShapeError } from "htlc-solver/chains/rpc/rpc-shape-error.js";
import type { SuiRpc } from "htlc-solver/chains/sui/rpc.js";

/** Where a page of events ends: the next page starts after it. */
export interface SuiEventCursor {
  txDigest: string;
  eventSeq: string;
}

export interface SuiEventsPage {
  events: { type: string; parsedJson: unknown; txDigest: string }[];
  /** The cursor to resume from: the page's last event, or the one asked with when the page was empty. */
  nextCursor: SuiEventCursor | null;
  hasNextPage: boolean;
}

/** The node's page cap. */
const EVENTS_PAGE = 50;
const DIGEST = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const METHOD = "suix_queryEvents";

type Rec = Record<string, unknown>;

function isRecord(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function cursorOf(value: unknown): SuiEventCursor | null {
  if (!isRecord(value) || typeof value.txDigest !== "string" || !DIGEST.test(value.txDigest)) return null;
  return typeof value.eventSeq === "string" && /^[0-9]{1,20}$/.test(value.eventSeq)
    ? { txDigest: value.txDigest, eventSeq: value.eventSeq }
    : null;
}

export async function initiatedEventsPage(
  rpc: SuiRpc,
  eventType: string,
  cursor: SuiEventCursor | null,
): Promise<SuiEventsPage> {
  const params = [{ MoveEventType: eventType }, cursor, EVENTS_PAGE, false];
  const answer = await rpc.pool.read(METHOD, (endpoint) => endpoint.request(METHOD, params));
  const shape = (issue: string) => new RpcShapeError(rpc.chain, METHOD, issue);
  if (!isRecord(answer) || !Array.isArray(answer.data)) throw shape("data is not a list");
  const events = answer.data.map((event: unknown, i) => {
    const id = isRecord(event) ? cursorOf(event.id) : null;
    if (!isRecord(event) || typeof event.type !== "string" || id === null)
      throw shape(`data[${i}] has no id or type`);
    return { type: event.type, parsedJson: event.parsedJson, txDigest: id.txDigest };
  });
  if (typeof answer.hasNextPage !== "boolean") throw shape("hasNextPage is not a boolean");
  const next =
    answer.nextCursor === null || answer.nextCursor === undefined ? null : cursorOf(answer.nextCursor);
  if (next === null && answer.nextCursor !== null && answer.nextCursor !== undefined)
    throw shape("nextCursor is not an event id");
  return { events, nextCursor: next ?? cursor, hasNextPage: answer.hasNextPage };
}
