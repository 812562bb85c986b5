/**
 * Several RPC endpoints of one chain used as one, chosen by health and head rather than by the order
 * they were configured in:
 *
 * - Reads go to the cheapest usable endpoint (latency plus recent faults), staying with the last one
 *   while it is about as good, and fail over to the next on a fault. An endpoint cools down after a
 *   rate limit (for as long as its Retry-After says) or after faults in a row.
 * - A read that must be current (the default) goes only to endpoints whose recent head is within
 *   `maxHeadLagBlocks` of the best head seen: a node stuck at an old block answers "not funded yet" or
 *   "no such transaction" and must not be believed, and one whose head is unknown may be that node.
 *   Heads are read from every endpoint about once per `headRefreshMs` (sooner when a read needs
 *   them), and noted from every answer that carries one.
 * - A head is stale when its block is older than `maxHeadAgeMs` by the wall clock (head-age.ts). Reads
 *   prefer endpoints whose head is not stale; `freshHead` (the tip confirmations and timelocks are
 *   counted from) never answers with a stale head, and fails naming every endpoint's head age when all
 *   of them are stale.
 * - `sticky(fn)` runs `fn` with every read inside it on one endpoint, for reads that must agree with
 *   each other (a block range, a tip and the blocks below it); on a fault the whole of `fn` moves on.
 * - Broadcasts go to every endpoint that is not cooling down (see broadcast.ts).
 *
 * Endpoint calls signal "this endpoint failed" by throwing an `EndpointFault`; anything else they throw
 * is the node's answer and reaches the caller unchanged, without trying other endpoints.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "pino";
import { broadcastToAll, type BroadcastOptions } from "./broadcast.js";
import { DEFAULT_HEALTH_POLICY, EndpointHealth, type HealthPolicy } from "./endpoint-health.js";
import { EndpointFault, RpcUnavailableError } from "./errors.js";
import type { HeadReading } from "./head-age.js";
import { HeadTracker } from "./head-tracker.js";

export interface PoolEndpoint {
  /** The endpoint's URL as scheme, host and port (redactUrl): the only way it is ever named. */
  readonly label: string;
}

export interface EndpointPoolOptions<E extends PoolEndpoint> {
  chain: string;
  endpoints: readonly E[];
  /** Asks one endpoint for its head: height (block count) and, where the chain tells, its block's time. */
  readHead: (endpoint: E) => Promise<HeadReading>;
  /** An endpoint whose head is more blocks than this below the best head is not used for current reads. */
  maxHeadLagBlocks: number;
  /** A head whose block is older than this by the wall clock is stale; undefined: not judged by time. */
  maxHeadAgeMs?: number;
  /** Heads are read again when the last reading is older than this. */
  headRefreshMs: number;
  /**
   * The endpoints' per-request timeout: a call gives up after twice this (plus a head refresh),
   * however many attempts are left.
   */
  timeoutMs: number;
  /** Attempts of one read over all endpoints; default 10. Fast faults make many cheap. */
  maxAttempts?: number;
  /** After one endpoint accepted a broadcast, how long to wait for the others; default 2 s (real time). */
  broadcastGraceMs?: number;
  /** Attempts of a broadcast per endpoint; default 4. */
  sendAttempts?: number;
  policy?: Partial<HealthPolicy>;
  logger?: Logger;
  now?: () => number;
  /** Waits out cool-downs; replaceable together with `now` for tests. */
  sleep?: (ms: number) => Promise<void>;
}

export interface EndpointStatus {
  endpoint: string;
  /** Usable for reads that must be current: not cooling down, not behind and not stale. */
  current: boolean;
  /** The last head's block time is older than `maxHeadAgeMs`. */
  stale: boolean;
  /** Age of the last head whose block time is known, ms; null when none is. */
  headAgeMs: number | null;
  coolingMs: number;
  coolReason: string;
  errorRate: number;
  latencyMs: number | null;
  head: number | null;
  lagBlocks: number | null;
  lastFault: string | null;
}

interface Choice<E> {
  endpoint: E | null;
  /** When nothing is ready: how long until an endpoint that may serve is out of its cool-down; null when none may. */
  waitMs: number | null;
  /** Some endpoint that may serve has no recent head: heads must be read before it can be chosen. */
  headsNeeded: boolean;
}

/** Endpoints pinned by the `sticky` scopes the current async call runs in, per pool. */
const pinnedByPool = new AsyncLocalStorage<ReadonlyMap<object, PoolEndpoint>>();

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Heads are compared about once a block (the chain's shortest block time), within these bounds. */
export function headRefreshFor(minBlockTimeMs: number): number {
  return Math.min(Math.max(minBlockTimeMs, 250), 30_000);
}

/** The `EndpointFault` an error is or was caused by, a few causes deep; null when none. */
export function faultIn(error: unknown): EndpointFault | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof EndpointFault) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** How long a head refresh may hold up a read; a slower endpoint's answer is still noted when it comes. */
const HEAD_PROBE_WAIT_MS = 3_000;
/**
 * A read waits for a cool-down to end only when it ends within this: a longer one (a refusal, a long
 * Retry-After) is not worth holding the caller, who will ask again on its next round.
 */
const MAX_READ_WAIT_MS = 5_000;

export class EndpointPool<E extends PoolEndpoint> {
  readonly chain: string;
  readonly endpoints: readonly E[];
  readonly #options: EndpointPoolOptions<E>;
  readonly #health = new Map<E, EndpointHealth>();
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #maxAttempts: number;
  /** The endpoint the last read went to: kept while about as good as the best, so reads agree. */
  #preferred: E | null = null;
  readonly #heads: HeadTracker<E>;

  constructor(options: EndpointPoolOptions<E>) {
    if (options.endpoints.length === 0) throw new Error(`RPC pool of ${options.chain} has no endpoints`);
    this.chain = options.chain;
    this.endpoints = options.endpoints;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? defaultSleep;
    this.#maxAttempts = options.maxAttempts ?? 10;
    const policy = { ...DEFAULT_HEALTH_POLICY, ...options.policy };
    for (const e of options.endpoints) this.#health.set(e, new EndpointHealth(policy));
    this.#heads = new HeadTracker<E>({
      chain: options.chain,
      endpoints: options.endpoints,
      healthOf: (e) => this.#healthOf(e),
      attempt: (e, call) => this.attempt(e, call),
      readHead: options.readHead,
      maxHeadLagBlocks: options.maxHeadLagBlocks,
      maxHeadAgeMs: options.maxHeadAgeMs,
      headRefreshMs: options.headRefreshMs,
      probeWaitMs: Math.min(options.timeoutMs, HEAD_PROBE_WAIT_MS),
      now: this.#now,
      sleep: this.#sleep,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
  }

  /** A read with failover; `current: false` lets it go to an endpoint that is behind (fee estimates). */
  async read<T>(what: string, call: (endpoint: E) => Promise<T>, options = { current: true }): Promise<T> {
    const pinned = this.#pinned();
    if (pinned !== null) return this.#readOn(pinned, what, call);
    const deadline = this.#deadline();
    const faults: EndpointFault[] = [];
    const tried = new Set<E>();
    // An old head is not made new by asking again at once.
    const stale = new Set<E>();
    while (faults.length < this.#maxAttempts) {
      const endpoint = await this.#nextEndpoint(options.current, tried, deadline);
      if (endpoint === null || stale.has(endpoint)) break;
      try {
        return await this.attempt(endpoint, call);
      } catch (error) {
        if (!(error instanceof EndpointFault)) throw error;
        faults.push(error);
        tried.add(endpoint);
        if (error.kind === "stale") stale.add(endpoint);
      }
    }
    throw new RpcUnavailableError(this.chain, what, faults, this.#skipReasons(options.current));
  }

  /**
   * The head of a current endpoint whose head block is recent: the tip confirmations and timelocks are
   * counted from. An endpoint answering with a stale head is passed over for the next; when every one
   * does, this fails with each endpoint's head age rather than answer from the past. `read` replaces the
   * pool's own head read (a Solana tip at another commitment).
   */
  freshHead(
    what = "head",
    read: (endpoint: E) => Promise<HeadReading> = this.#options.readHead,
  ): Promise<HeadReading> {
    return this.read(what, async (endpoint) => {
      const head = await read(endpoint);
      this.#heads.note(endpoint, head.height, head.timeMs);
      this.#heads.reportStale(endpoint);
      const stale = this.#heads.staleReason(head);
      if (stale !== null) throw new EndpointFault(endpoint.label, "stale", stale);
      return head;
    });
  }

  /**
   * Runs `fn` with every read of this pool inside it on one current endpoint. When that endpoint
   * fails for good, `fn` runs again from the start on another, so it must be safe to repeat (reads).
   */
  async sticky<T>(what: string, fn: () => Promise<T>): Promise<T> {
    if (this.#pinned() !== null) return fn();
    const deadline = this.#deadline();
    const faults: EndpointFault[] = [];
    const tried = new Set<E>();
    while (faults.length < this.endpoints.length + 1) {
      const endpoint = await this.#nextEndpoint(true, tried, deadline);
      if (endpoint === null) break;
      const pins = new Map(pinnedByPool.getStore() ?? []);
      pins.set(this, endpoint);
      try {
        return await pinnedByPool.run(pins, fn);
      } catch (error) {
        // Client libraries may wrap the fault (viem does); it is still this endpoint's.
        const fault = faultIn(error);
        if (fault === null || fault.endpoint !== endpoint.label) throw error;
        faults.push(fault);
        tried.add(endpoint);
      }
    }
    throw new RpcUnavailableError(this.chain, what, faults, this.#skipReasons(true));
  }

  /** Sends to every endpoint that is not cooling down; see `broadcastToAll`. */
  broadcast<T>(what: string, send: (endpoint: E) => Promise<T>, options: BroadcastOptions = {}): Promise<T> {
    const ready = this.endpoints.filter((e) => this.#healthOf(e).coolingMs(this.#now()) === 0);
    return broadcastToAll({
      chain: this.chain,
      what,
      // When every endpoint is cooling down, trying them all beats not sending at all.
      targets: ready.length > 0 ? ready : this.endpoints,
      send: (e) => this.attempt(e, send),
      coolingMs: (e) => this.#healthOf(e).coolingMs(this.#now()),
      attempts: this.#options.sendAttempts ?? 4,
      graceMs: this.#options.broadcastGraceMs ?? 2_000,
      sleep: this.#sleep,
      ...options,
    });
  }

  /** Notes a head an endpoint reported in an answer (a block count, a latest block with its time). */
  noteHead(endpoint: E, height: number, timeMs: number | null = null): void {
    this.#heads.note(endpoint, height, timeMs);
  }

  /** The highest head reported recently by any endpoint; null when none is known. */
  bestHead(): number | null {
    return this.#heads.best();
  }

  status(): EndpointStatus[] {
    const now = this.#now();
    const best = this.bestHead();
    return this.endpoints.map((e) => {
      const h = this.#healthOf(e);
      const stale = this.#heads.isStale(e);
      return {
        endpoint: e.label,
        current: h.coolingMs(now) === 0 && this.#heads.isCurrent(e) && !stale,
        stale,
        headAgeMs: this.#heads.headAgeMs(e),
        coolingMs: h.coolingMs(now),
        coolReason: h.coolingMs(now) === 0 ? "" : h.coolReason,
        errorRate: h.errorRate,
        latencyMs: h.latencyMs === null ? null : Math.round(h.latencyMs),
        head: h.head?.height ?? null,
        lagBlocks: best === null || h.head === null ? null : best - h.head.height,
        lastFault: h.lastFault?.message ?? null,
      };
    });
  }

  /** One call on one endpoint, with its outcome recorded. Exposed for the protocol clients' probes. */
  async attempt<T>(endpoint: E, call: (endpoint: E) => Promise<T>): Promise<T> {
    const health = this.#healthOf(endpoint);
    const started = this.#now();
    try {
      const result = await call(endpoint);
      health.answered(this.#now() - started);
      return result;
    } catch (error) {
      if (!(error instanceof EndpointFault) || error.kind === "stale") {
        // The node answered, if only with an error or an old head: the endpoint works.
        health.answered(this.#now() - started);
        if (error instanceof EndpointFault) health.faulted(error, this.#now());
        throw error;
      }
      const coolMs = health.faulted(error, this.#now());
      if (error.kind === "rate-limited" || error.kind === "refused" || coolMs >= 1_000) {
        this.#options.logger?.warn(
          { chain: this.chain, endpoint: endpoint.label, coolDownMs: coolMs, fault: error.message },
          "RPC endpoint cooling down",
        );
      }
      throw error;
    }
  }

  #healthOf(endpoint: E): EndpointHealth {
    const health = this.#health.get(endpoint);
    if (health === undefined) throw new Error(`${endpoint.label} is not an endpoint of ${this.chain}'s pool`);
    return health;
  }

  #pinned(): E | null {
    return (pinnedByPool.getStore()?.get(this) as E | undefined) ?? null;
  }

  /** Reads on a pinned endpoint: retried there while attempts and time last, then its fault moves `sticky` on. */
  async #readOn<T>(endpoint: E, what: string, call: (endpoint: E) => Promise<T>): Promise<T> {
    const deadline = this.#deadline();
    const health = this.#healthOf(endpoint);
    let lastFault: EndpointFault | null = null;
    for (let attempt = 0; attempt < this.#maxAttempts; attempt++) {
      const wait = health.coolingMs(this.#now());
      if (wait > 0) {
        if (!this.#worthWaiting(wait, deadline)) break;
        await this.#sleep(wait);
      }
      try {
        return await this.attempt(endpoint, call);
      } catch (error) {
        if (!(error instanceof EndpointFault) || error.kind === "stale") throw error;
        lastFault = error;
      }
    }
    throw (
      lastFault ??
      new EndpointFault(
        endpoint.label,
        "unavailable",
        `cooling down (${health.coolReason}) past the time ${what} may take`,
      )
    );
  }

  /**
   * The endpoint to ask next. When none can be asked now, waits for a cool-down to end or reads the
   * heads again, as long as that is worth it; null to give up.
   */
  async #nextEndpoint(current: boolean, tried: ReadonlySet<E>, deadline: number): Promise<E | null> {
    let forceHeads = false;
    for (;;) {
      // Every time round: a head read before a wait may be too old to judge an endpoint by.
      if (current) await this.#heads.ensure(forceHeads);
      const choice = this.#choose(current, tried);
      if (choice.endpoint !== null) return choice.endpoint;
      if (!this.#worthWaiting(choice.waitMs, deadline)) return null;
      if ((choice.waitMs ?? 0) > 0) await this.#sleep(choice.waitMs ?? 0);
      else if (!choice.headsNeeded || this.#now() >= deadline) return null;
      forceHeads = choice.headsNeeded;
    }
  }

  #worthWaiting(waitMs: number | null, deadline: number): boolean {
    return waitMs !== null && waitMs <= MAX_READ_WAIT_MS && this.#now() + waitMs <= deadline;
  }

  /** When a call gives up: two timeouts, and the head refresh it may have had to wait for. */
  #deadline(): number {
    return this.#now() + 2 * this.#options.timeoutMs + this.#probeWaitMs;
  }

  /** How long a head refresh may hold up a read. */
  get #probeWaitMs(): number {
    return Math.min(this.#options.timeoutMs, HEAD_PROBE_WAIT_MS);
  }

  #choose(current: boolean, tried: ReadonlySet<E>): Choice<E> {
    const now = this.#now();
    const eligible = this.endpoints.filter((e) => !current || this.#heads.isCurrent(e));
    const available = eligible.filter((e) => this.#healthOf(e).coolingMs(now) === 0);
    // An endpoint with a stale head may still answer what the others cannot; it is asked last.
    const notStale = available.filter((e) => !this.#heads.isStale(e));
    const ready = notStale.length > 0 ? notStale : available;
    if (ready.length === 0) {
      // An endpoint without a recent head is not behind for all we know: it may serve once read.
      const unknown = current ? this.endpoints.filter((e) => this.#heads.fresh(e) === null) : [];
      const waitable = [...eligible, ...unknown];
      if (waitable.length === 0) return { endpoint: null, waitMs: null, headsNeeded: false };
      const waitMs = Math.min(...waitable.map((e) => this.#healthOf(e).coolingMs(now)));
      return { endpoint: null, waitMs, headsNeeded: unknown.length > 0 };
    }
    const untried = ready.filter((e) => !tried.has(e));
    const candidates = untried.length > 0 ? untried : ready;
    const price = this.#options.timeoutMs;
    const cost = (e: E) => this.#healthOf(e).cost(price);
    let best = candidates[0] as E;
    for (const e of candidates) if (cost(e) < cost(best)) best = e;
    const preferred = this.#preferred;
    // Staying on one endpoint while it is about as good keeps consecutive reads consistent.
    const keep =
      preferred !== null && candidates.includes(preferred) && cost(preferred) <= cost(best) * 1.5 + 50;
    const chosen = keep ? preferred : best;
    this.#preferred = chosen;
    return { endpoint: chosen, waitMs: 0, headsNeeded: false };
  }

  #skipReasons(current: boolean): string[] {
    const now = this.#now();
    return this.endpoints.flatMap((e) => {
      const h = this.#healthOf(e);
      const reasons: string[] = [];
      const cooling = h.coolingMs(now);
      if (cooling > 0) reasons.push(`${e.label} cooling down for ${cooling} ms (${h.coolReason})`);
      if (current && !this.#heads.isCurrent(e)) reasons.push(this.#heads.whyNotCurrent(e));
      if (current && this.#heads.isStale(e)) reasons.push(`${e.label} head is stale`);
      return reasons;
    });
  }
}
