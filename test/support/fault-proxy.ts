/**
 * A fault-injecting JSON-RPC proxy for tests, placed between a client and a local node (anvil, or
 * bitcoind and the project's regtest node). Set at run time (`configure`, or the control path for the
 * CLI), it can:
 *
 * - fail a share of calls: HTTP 500, HTTP 429 with Retry-After (seconds or an HTTP date), a JSON-RPC
 *   error, a connection reset, or a hang (no answer until the client gives up, or `hangMs`);
 * - delay calls (fixed plus seeded jitter);
 * - serve a stale head: answer as a node stuck at a given height (see fault-proxy-stale.ts);
 * - drop sends: answer `eth_sendRawTransaction` / `sendrawtransaction` with success, forward nothing;
 * - limit faults and delays to some methods, or spare some;
 * - count calls, forwards, drops, stale answers and faults per method, exactly: each element of a
 *   JSON-RPC batch counts as one call;
 * - keep a timeline of requests (when each came and was answered), to count round trips in a row.
 *
 * Faults are drawn from a generator seeded by `seed`, one draw per decision in arrival order, so the
 * same seed and the same sequence of calls give the same faults. HTTP-level faults hit a whole batch
 * (and count for every call in it); a JSON-RPC error hits one element. Credentials pass through.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Transaction } from "bitcoinjs-lib";
import { keccak256, type Hex } from "viem";
import { parseKeepingNumbers, seededRandom, stringifyKeepingNumbers } from "./fault-proxy-json.js";
import { stalePlan, type RpcOutcome, type StalePlan } from "./fault-proxy-stale.js";
import type { TimedRequest } from "./round-trips.js";
import { pooledPost, readWhole } from "./pooled-post.js";
import { listen } from "../../src/util/listen.js";

export const FAULT_KINDS = ["http500", "http429", "rpcError", "reset", "hang"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
const HTTP_LEVEL = new Set<FaultKind>(["http500", "http429", "reset", "hang"]);
const SEND_METHODS = new Set(["eth_sendRawTransaction", "sendrawtransaction"]);
const INTERNAL_ERROR = { code: -32603, message: "injected fault: internal error" };
const WARMING_UP = { code: -28, message: "injected fault: Loading block index..." };
/** Path of the control interface (GET: config and counters; POST: a config patch). */
export const CONTROL_PATH = "/__fault-proxy";

export interface FaultConfig {
  /** Share of the calls that faults apply to which fail, 0 to 1. */
  failRate: number;
  /** Relative weights of the kinds a failing call gets; kinds left out are never drawn. */
  faults: Partial<Record<FaultKind, number>>;
  /** When set, only these methods get faults and delays. */
  methods: string[] | null;
  /** These methods never get faults or delays. */
  exceptMethods: string[];
  /** Retry-After of injected 429s; null sends none. */
  retryAfter: { seconds: number; form: "seconds" | "date" } | null;
  /**
   * The JSON-RPC error injected; null picks one the client treats as passing: "internal error"
   * (-32603) in JSON-RPC 2.0, "Loading block index" (-28, a node warming up) in bitcoind's dialect.
   */
  rpcError: { code: number; message: string } | null;
  /** A hang drops the connection after this long; null holds it until the client gives up. */
  hangMs: number | null;
  delayMs: number;
  /** Up to this much more delay, drawn per request. */
  jitterMs: number;
  /** Answer as a node stuck at this height; null forwards heads as they are. */
  staleHeight: number | null;
  /** Answer sends with success and forward nothing. */
  dropSends: boolean;
}

export const DEFAULT_FAULT_CONFIG: FaultConfig = {
  failRate: 0,
  faults: { http500: 1, http429: 1, rpcError: 1, reset: 1 },
  methods: null,
  exceptMethods: [],
  retryAfter: { seconds: 1, form: "seconds" },
  rpcError: null,
  hangMs: null,
  delayMs: 0,
  jitterMs: 0,
  staleHeight: null,
  dropSends: false,
};

export interface MethodCounts {
  /** Calls that reached the proxy. */
  calls: number;
  /** Calls passed on to the node. */
  forwarded: number;
  /** Sends answered with success and not passed on. */
  dropped: number;
  /** Calls answered as the stale node would (made up, or the node's answer fixed). */
  stale: number;
  /** Faults injected, all kinds. */
  faults: number;
  byFault: Record<FaultKind, number>;
}

interface Call {
  id: unknown;
  method: string;
  params: unknown;
  /** "2.0", or anything else for bitcoind's 1.0 style. */
  jsonrpc: unknown;
  fault: FaultKind | null;
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);

function emptyCounts(): MethodCounts {
  const byFault = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  return { calls: 0, forwarded: 0, dropped: 0, stale: 0, faults: 0, byFault };
}

/** The reply object of one call in its dialect: JSON-RPC 2.0, or bitcoind's 1.0 style. */
function replyOf(call: Call, outcome: RpcOutcome): Rec {
  if (call.jsonrpc === "2.0") return { jsonrpc: "2.0", id: call.id, ...outcome };
  return "error" in outcome
    ? { result: null, error: outcome.error, id: call.id }
    : { result: outcome.result, error: null, id: call.id };
}

/** The id of what a dropped send would have become. */
function sentId(method: string, params: unknown): string {
  const raw = Array.isArray(params) && typeof params[0] === "string" ? params[0] : "";
  if (method === "eth_sendRawTransaction") return keccak256(raw as Hex);
  return Transaction.fromHex(raw).getId();
}

export class FaultProxy {
  url = "";
  /** The highest head seen in answers passing through (eth_blockNumber, getblockcount). */
  lastSeenHead: number | null = null;
  #config: FaultConfig;
  #random: () => number;
  #counts = new Map<string, MethodCounts>();
  #timeline: TimedRequest[] = [];
  #server: Server | null = null;
  readonly #sockets = new Set<Socket>();

  constructor(
    private readonly upstream: string,
    options: { seed?: number; config?: Partial<FaultConfig> } = {},
  ) {
    this.#config = { ...DEFAULT_FAULT_CONFIG, ...options.config };
    this.#random = seededRandom(options.seed ?? 1);
  }

  get config(): Readonly<FaultConfig> {
    return this.#config;
  }

  configure(patch: Partial<FaultConfig>): void {
    this.#config = { ...this.#config, ...patch };
  }

  /** Serves `height` (default: the last head seen) as the head from now on; returns it. */
  freezeHead(height?: number): number {
    const frozen = height ?? this.lastSeenHead;
    if (frozen === null || frozen === undefined) {
      throw new Error("freezeHead: no height given and no head has passed through the proxy yet");
    }
    this.configure({ staleHeight: frozen });
    return frozen;
  }

  thawHead(): void {
    this.configure({ staleHeight: null });
  }

  /** A copy of the counts per method. */
  counts(): Record<string, MethodCounts> {
    return Object.fromEntries([...this.#counts].map(([m, c]) => [m, structuredClone(c)]));
  }

  /** The counts of all methods together. */
  totals(): MethodCounts {
    const total = emptyCounts();
    for (const c of this.#counts.values()) {
      total.calls += c.calls;
      total.forwarded += c.forwarded;
      total.dropped += c.dropped;
      total.stale += c.stale;
      total.faults += c.faults;
      for (const kind of FAULT_KINDS) total.byFault[kind] += c.byFault[kind];
    }
    return total;
  }

  resetCounts(): void {
    this.#counts.clear();
    this.#timeline = [];
  }

  /** Every request answered since the counts were last reset: its methods, when it came and was answered. */
  timeline(): TimedRequest[] {
    return this.#timeline.map((r) => ({ ...r, methods: [...r.methods] }));
  }

  async start(port = 0): Promise<void> {
    const server = createServer((request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        if (response.headersSent || response.destroyed) return;
        response.writeHead(502, { "content-type": "text/plain" });
        response.end(`fault proxy: ${error instanceof Error ? error.message : String(error)}`);
      });
    });
    server.on("connection", (socket) => {
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
    });
    this.#server = server;
    await listen(server, port, "127.0.0.1");
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (server === null) return;
    this.#server = null;
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #count(method: string): MethodCounts {
    let counts = this.#counts.get(method);
    if (counts === undefined) {
      counts = emptyCounts();
      this.#counts.set(method, counts);
    }
    return counts;
  }

  #applies(method: string): boolean {
    const { methods, exceptMethods } = this.#config;
    if (exceptMethods.includes(method)) return false;
    return methods === null || methods.includes(method);
  }

  /** One draw for "does it fail", and one for the kind when it does. */
  #drawFault(method: string): FaultKind | null {
    const { failRate, faults } = this.#config;
    if (failRate <= 0 || !this.#applies(method)) return null;
    if (this.#random() >= failRate) return null;
    const weighted = FAULT_KINDS.map((k) => [k, Math.max(0, faults[k] ?? 0)] as const).filter(
      ([, w]) => w > 0,
    );
    const total = weighted.reduce((sum, [, w]) => sum + w, 0);
    if (total === 0) return null;
    let pick = this.#random() * total;
    for (const [kind, weight] of weighted) {
      pick -= weight;
      if (pick < 0) return kind;
    }
    return weighted[weighted.length - 1]?.[0] ?? null;
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const arrivedMs = Date.now();
    const body = await readWhole(request);
    if ((request.url ?? "").startsWith(CONTROL_PATH)) return this.#control(request, body, response);
    let parsed: unknown;
    try {
      parsed = parseKeepingNumbers(body);
    } catch {
      this.#count("(not json)").calls++;
      return this.#forwardText(request, body, response);
    }
    const batch = Array.isArray(parsed);
    const items: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
    const calls: Call[] = items.map((item) => {
      const rec = isRec(item) ? item : {};
      const method = typeof rec.method === "string" ? rec.method : "(no method)";
      this.#count(method).calls++;
      return { id: rec.id, method, params: rec.params, jsonrpc: rec.jsonrpc, fault: this.#drawFault(method) };
    });
    response.on("finish", () => {
      this.#timeline.push({ methods: calls.map((c) => c.method), arrivedMs, answeredMs: Date.now() });
    });
    await this.#delay(calls);
    const httpFault = calls.map((c) => c.fault).find((f) => f !== null && HTTP_LEVEL.has(f));
    if (httpFault !== undefined && httpFault !== null)
      return this.#failHttp(httpFault, calls, request, response);
    const outcomes = await this.#answer(calls, request);
    const replies = calls.map((call, i) => replyOf(call, outcomes[i] as RpcOutcome));
    if (batch) return this.#send(response, 200, stringifyKeepingNumbers(replies));
    const only = replies[0] as Rec;
    const status = calls[0]?.jsonrpc !== "2.0" && only.error !== null && only.error !== undefined ? 500 : 200;
    this.#send(response, status, stringifyKeepingNumbers(only));
  }

  async #delay(calls: readonly Call[]): Promise<void> {
    const { delayMs, jitterMs } = this.#config;
    if ((delayMs <= 0 && jitterMs <= 0) || !calls.some((c) => this.#applies(c.method))) return;
    const wait = delayMs + (jitterMs > 0 ? Math.floor(this.#random() * jitterMs) : 0);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }

  #failHttp(
    kind: FaultKind,
    calls: readonly Call[],
    request: IncomingMessage,
    response: ServerResponse,
  ): void {
    for (const call of calls) {
      const counts = this.#count(call.method);
      counts.faults++;
      counts.byFault[kind]++;
    }
    if (kind === "reset") {
      request.socket.destroy();
      return;
    }
    if (kind === "hang") {
      const { hangMs } = this.#config;
      if (hangMs !== null) setTimeout(() => request.socket.destroy(), hangMs).unref();
      return;
    }
    if (kind === "http500")
      return this.#send(response, 500, "injected fault: internal server error", "text/plain");
    const headers: Record<string, string> = { "content-type": "text/plain" };
    const retry = this.#config.retryAfter;
    if (retry !== null) {
      headers["retry-after"] =
        retry.form === "seconds"
          ? String(retry.seconds)
          : new Date(Date.now() + retry.seconds * 1000).toUTCString();
    }
    response.writeHead(429, headers);
    response.end("injected fault: too many requests");
  }

  /** The outcome of each call: injected, made up, or the node's (fixed when the head is stale). */
  async #answer(calls: readonly Call[], request: IncomingMessage): Promise<RpcOutcome[]> {
    const outcomes: (RpcOutcome | undefined)[] = [];
    const forwards: { index: number; call: Call; plan: StalePlan | null; params: unknown }[] = [];
    const { staleHeight, dropSends, rpcError } = this.#config;
    calls.forEach((call, index) => {
      const counts = this.#count(call.method);
      if (call.fault === "rpcError") {
        counts.faults++;
        counts.byFault.rpcError++;
        outcomes[index] = { error: rpcError ?? (call.jsonrpc === "2.0" ? INTERNAL_ERROR : WARMING_UP) };
        return;
      }
      if (dropSends && SEND_METHODS.has(call.method)) {
        counts.dropped++;
        outcomes[index] = { result: sentId(call.method, call.params) };
        return;
      }
      const plan =
        staleHeight === null
          ? null
          : stalePlan(call.method, call.params, {
              height: staleHeight,
              upstream: (method, params) => this.#upstreamResult(method, params, call.jsonrpc, request),
            });
      if (plan !== null) counts.stale++;
      if (plan !== null && "answer" in plan) {
        outcomes[index] = plan.answer;
        return;
      }
      forwards.push({ index, call, plan, params: plan?.params ?? call.params });
    });
    if (forwards.length > 0) {
      const sent = forwards.map(({ call, params }) => ({
        ...(call.jsonrpc === undefined ? {} : { jsonrpc: call.jsonrpc }),
        id: call.id,
        method: call.method,
        params,
      }));
      const answers = await this.#forward(sent, request);
      for (const [i, forward] of forwards.entries()) {
        this.#count(forward.call.method).forwarded++;
        const answer = answers[i] ?? { error: { code: -32603, message: "fault proxy: node gave no answer" } };
        this.#noteHead(forward.call.method, answer);
        const fix = forward.plan !== null && "fix" in forward.plan ? forward.plan.fix : undefined;
        outcomes[forward.index] = fix !== undefined && "result" in answer ? await fix(answer.result) : answer;
      }
    }
    return outcomes as RpcOutcome[];
  }

  #noteHead(method: string, answer: RpcOutcome): void {
    if (!("result" in answer)) return;
    let head: number | null = null;
    if (method === "eth_blockNumber" && typeof answer.result === "string")
      head = Number.parseInt(answer.result.slice(2), 16);
    if (method === "getblockcount" && typeof answer.result === "string")
      head = Number(answer.result.replace("\u0000n:", ""));
    if (head !== null && Number.isSafeInteger(head))
      this.lastSeenHead = Math.max(this.lastSeenHead ?? 0, head);
  }

  /** Sends calls to the node as one batch (one call alone when there is one); answers in call order. */
  async #forward(sent: readonly Rec[], request: IncomingMessage): Promise<RpcOutcome[]> {
    const text = await this.#post(stringifyKeepingNumbers(sent.length === 1 ? sent[0] : sent), request);
    const parsed = parseKeepingNumbers(text);
    const replies = (Array.isArray(parsed) ? parsed : [parsed]).filter(isRec);
    return sent.map((call, i) => {
      const reply = replies.find((r) => r.id === call.id) ?? replies[i];
      if (reply === undefined)
        return { error: { code: -32603, message: "fault proxy: no reply for this call" } };
      const error = reply.error;
      if (isRec(error)) return { error: { ...error, code: error.code, message: error.message } };
      return { result: reply.result };
    });
  }

  async #upstreamResult(method: string, params: unknown[], jsonrpc: unknown, request: IncomingMessage) {
    const [answer] = await this.#forward([{ jsonrpc, id: "fault-proxy", method, params }], request);
    if (answer === undefined || "error" in answer) throw new Error(`fault proxy: ${method} failed upstream`);
    return answer.result;
  }

  async #post(body: string, request: IncomingMessage): Promise<string> {
    return (await pooledPost(this.upstream, body, this.#upstreamHeaders(request))).text;
  }

  async #forwardText(request: IncomingMessage, body: string, response: ServerResponse): Promise<void> {
    const upstream = await pooledPost(this.upstream, body, this.#upstreamHeaders(request));
    this.#send(response, upstream.status, upstream.text);
  }

  #upstreamHeaders(request: IncomingMessage): Record<string, string> {
    const authorization = request.headers.authorization;
    return { "content-type": "application/json", ...(authorization ? { authorization } : {}) };
  }

  #control(request: IncomingMessage, body: string, response: ServerResponse): void {
    const action = (request.url ?? "").slice(CONTROL_PATH.length);
    try {
      if (request.method === "POST" && action === "/reset") this.resetCounts();
      else if (request.method === "POST" && action === "/freeze") {
        const height = body.trim() === "" ? undefined : (JSON.parse(body) as { height?: number }).height;
        this.freezeHead(height);
      } else if (request.method === "POST" && action === "/thaw") this.thawHead();
      else if (request.method === "POST" && action === "")
        this.configure(JSON.parse(body) as Partial<FaultConfig>);
      else if (request.method !== "GET" || action !== "")
        throw new Error(`no control ${request.method} ${action}`);
    } catch (error) {
      return this.#send(response, 400, JSON.stringify({ error: String(error) }));
    }
    this.#send(
      response,
      200,
      JSON.stringify({ config: this.#config, counts: this.counts(), totals: this.totals() }),
    );
  }

  #send(response: ServerResponse, status: number, text: string, contentType = "application/json"): void {
    if (response.destroyed) return;
    response.writeHead(status, { "content-type": contentType });
    response.end(text);
  }
}
