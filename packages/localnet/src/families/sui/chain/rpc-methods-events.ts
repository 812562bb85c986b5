/**
 * `suix_queryEvents`: events by Move event type, by module, by transaction or by sender, in execution
 * order or reversed, in pages of at most 50 resumed from the `{txDigest, eventSeq}` cursor of the last
 * event seen.
 */
import { normalizeSuiAddress } from "@mysten/sui/utils";
import type { StoredEvent } from "./chain.js";
import { invalidParams } from "./errors.js";
import { eventJson } from "./response-json.js";
import type { RpcMethod } from "./rpc-method.js";
import { parseAddress } from "./rpc-params.js";

type EventFilter = (event: StoredEvent) => boolean;

/** `<address>::<module>::<Name>` with the address normalised, so short and long forms match. */
function normaliseEventType(type: string): string {
  const [address, ...rest] = type.split("::");
  if (address === undefined || rest.length < 2)
    throw invalidParams(`MoveEventType must be <package>::<module>::<Name>, got ${type}`);
  return [normalizeSuiAddress(address), ...rest].join("::");
}

function filterOf(query: unknown): EventFilter {
  if (typeof query !== "object" || query === null || Array.isArray(query))
    throw invalidParams("query must be an event filter object");
  const q = query as Record<string, unknown>;
  if (typeof q.MoveEventType === "string") {
    const type = normaliseEventType(q.MoveEventType);
    return (e) => normaliseEventType(e.event.type) === type;
  }
  if (typeof q.MoveEventModule === "object" && q.MoveEventModule !== null) {
    const { package: pkg, module } = q.MoveEventModule as Record<string, unknown>;
    if (typeof module !== "string") throw invalidParams("MoveEventModule.module must be a string");
    const packageId = parseAddress(pkg, "MoveEventModule.package");
    return (e) => e.event.packageId === packageId && e.event.module === module;
  }
  if (typeof q.Transaction === "string") {
    const digest = q.Transaction;
    return (e) => e.txDigest === digest;
  }
  if (q.Sender !== undefined) {
    const sender = parseAddress(q.Sender, "Sender");
    return (e) => e.sender === sender;
  }
  throw invalidParams(
    `query must be one of {MoveEventType}, {MoveEventModule: {package, module}}, {Transaction}, {Sender}, got ${JSON.stringify(query)}`,
  );
}

export const EVENT_METHODS: Record<string, RpcMethod> = {
  suix_queryEvents: (chain, params) => {
    const filter = filterOf(params.required(0, "query"));
    const cursor = params.optional(1);
    const limit = params.limit(2);
    const descending = params.optional(3) === true;
    const ordered = descending ? [...chain.events].reverse() : chain.events;
    let start = 0;
    if (cursor !== undefined) {
      const { txDigest, eventSeq } = (cursor ?? {}) as Record<string, unknown>;
      const at = ordered.findIndex((e) => e.txDigest === txDigest && String(e.eventSeq) === String(eventSeq));
      if (at < 0) throw invalidParams(`cursor ${JSON.stringify(cursor)} names no event of this chain`);
      start = at + 1;
    }
    const matching = ordered.slice(start).filter(filter);
    const page = matching.slice(0, limit);
    const last = page[page.length - 1];
    return {
      data: page.map(eventJson),
      nextCursor:
        last === undefined ? (cursor ?? null) : { txDigest: last.txDigest, eventSeq: String(last.eventSeq) },
      hasNextPage: matching.length > page.length,
    };
  },
};
