/**
 * What the endpoint pool knows of its endpoints' heads, and when it reads them again. An endpoint is
 * current when the head it reported recently is within `maxHeadLagBlocks` of the best head: the
 * highest any endpoint reported over a longer memory, so that an endpoint that stops answering still
 * testifies that a stuck one is behind. An endpoint whose head is unknown is not current: it may be
 * the stuck one. Apart from that, an endpoint whose last head block is older than `maxHeadAgeMs` by the
 * wall clock is stale (head-age.ts): every endpoint may be stuck together, or the only one may be.
 */
import type { Logger } from "pino";
import type { EndpointHealth } from "./endpoint-health.js";
import { EndpointFault } from "./errors.js";
import { staleHeadReason, type HeadReading } from "./head-age.js";

/** A current endpoint is judged by a head it reported within this many refresh intervals (and a refresh). */
const HEAD_MAX_AGE_REFRESHES = 3;
/**
 * The best head is the highest reported within this many refresh intervals. A head that went down (a
 * reorg) replaces the endpoint's older reading at once.
 */
const HEAD_MEMORY_REFRESHES = 20;
/**
 * A head probe waits out a cool-down this short and tries again: a head missing from one refresh
 * could let an endpoint that is behind pass for current. A longer cool-down (an endpoint that is
 * down, or a long Retry-After) ends the probe at once, so that it does not hold up reads.
 */
const PROBE_MAX_COOL_WAIT_MS = 1_000;

export interface HeadTrackerOptions<E extends { label: string }> {
  chain: string;
  endpoints: readonly E[];
  healthOf: (endpoint: E) => EndpointHealth;
  /** One call on one endpoint with its outcome recorded (the pool's `attempt`). */
  attempt: (endpoint: E, call: (endpoint: E) => Promise<HeadReading>) => Promise<HeadReading>;
  readHead: (endpoint: E) => Promise<HeadReading>;
  maxHeadLagBlocks: number;
  /** A head whose block is older than this is stale; undefined: heads are not judged by their time. */
  maxHeadAgeMs?: number | undefined;
  /** Heads are read again when the last refresh is older than this. */
  headRefreshMs: number;
  /** How long a refresh may hold up a read; a slower endpoint's head is still noted when it comes. */
  probeWaitMs: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  logger?: Logger;
}

/** Waits for `work`, but no longer than `ms`; the timer is cleared so that it never holds the process. */
export async function withinMs(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  try {
    await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export class HeadTracker<E extends { label: string }> {
  readonly #o: HeadTrackerOptions<E>;
  #refreshedAtMs = Number.NEGATIVE_INFINITY;
  #refresh: Promise<void> | null = null;
  /** Probes under way, per endpoint: never two at once on one endpoint. */
  readonly #probes = new Map<E, Promise<void>>();
  /** Endpoints last logged as not current, so the log says it once per change. */
  readonly #behind = new Set<E>();
  /** Each endpoint's last head whose block time it told, and endpoints last logged as stale. */
  readonly #timed = new Map<E, HeadReading>();
  readonly #stale = new Set<E>();

  constructor(options: HeadTrackerOptions<E>) {
    this.#o = options;
  }

  /** Notes a head an endpoint reported; `timeMs` when the answer told its block's time. */
  note(endpoint: E, height: number, timeMs: number | null = null): void {
    this.#o.healthOf(endpoint).noteHead(height, this.#o.now());
    if (timeMs !== null) this.#timed.set(endpoint, { height, timeMs });
  }

  /** Why this head is too old to count from (see head-age.ts); null when it is not, or is not judged. */
  staleReason(head: HeadReading): string | null {
    const maxAgeMs = this.#o.maxHeadAgeMs;
    return maxAgeMs === undefined ? null : staleHeadReason(head, this.#o.now(), maxAgeMs);
  }

  /** The endpoint's last timed head is too old; false while unknown. */
  isStale(endpoint: E): boolean {
    const head = this.#timed.get(endpoint);
    return head !== undefined && this.staleReason(head) !== null;
  }

  /** How old the endpoint's last timed head block is, ms; null while unknown. */
  headAgeMs(endpoint: E): number | null {
    const timeMs = this.#timed.get(endpoint)?.timeMs ?? null;
    return timeMs === null ? null : this.#o.now() - timeMs;
  }

  /** Logs an endpoint that became stale or stopped being so, once per change. */
  reportStale(endpoint: E): void {
    const head = this.#timed.get(endpoint);
    const reason = head === undefined ? null : this.staleReason(head);
    if ((reason !== null) === this.#stale.has(endpoint)) return;
    const fields = { chain: this.#o.chain, endpoint: endpoint.label, head: head?.height ?? null };
    if (reason !== null) {
      this.#stale.add(endpoint);
      this.#o.logger?.warn({ ...fields, reason }, "RPC endpoint's head is stale; its tips are not used");
    } else {
      this.#stale.delete(endpoint);
      this.#o.logger?.info(fields, "RPC endpoint's head is current again");
    }
  }

  /** The highest head reported recently by any endpoint; null when none is known. */
  best(): number | null {
    let best: number | null = null;
    for (const e of this.#o.endpoints) {
      const height = this.#within(e, HEAD_MEMORY_REFRESHES);
      if (height !== null && (best === null || height > best)) best = height;
    }
    return best;
  }

  /** The endpoint's head when it was read recently; null when unknown or too old to judge it by. */
  fresh(endpoint: E): number | null {
    return this.#within(endpoint, HEAD_MAX_AGE_REFRESHES);
  }

  isCurrent(endpoint: E): boolean {
    if (this.#o.endpoints.length === 1) return true;
    const best = this.best();
    const head = this.fresh(endpoint);
    return best !== null && head !== null && best - head <= this.#o.maxHeadLagBlocks;
  }

  /** Why an endpoint is not current, for error messages. */
  whyNotCurrent(endpoint: E): string {
    const best = this.best();
    const head = this.fresh(endpoint);
    return head === null || best === null
      ? `${endpoint.label} head not read recently`
      : `${endpoint.label} head ${head} is ${best - head} blocks behind ${best}`;
  }

  /**
   * Reads every endpoint's head when the last refresh is too old, or when `force`d; concurrent callers
   * share one refresh, and a refresh under way is waited for.
   */
  async ensure(force = false): Promise<void> {
    if (this.#o.endpoints.length === 1) return;
    const due = force || this.#o.now() - this.#refreshedAtMs >= this.#o.headRefreshMs;
    if (this.#refresh === null && !due) return;
    this.#refresh ??= this.#refreshAll(force).finally(() => (this.#refresh = null));
    await this.#refresh;
  }

  #within(endpoint: E, refreshes: number): number | null {
    const head = this.#o.healthOf(endpoint).head;
    const oldest = this.#o.now() - refreshes * this.#o.headRefreshMs - this.#o.probeWaitMs;
    return head !== null && head.atMs >= oldest ? head.height : null;
  }

  /**
   * Probes every endpoint. Callers wait for the probes of endpoints whose last call went well; an
   * endpoint that just failed is probed without holding them up, as it may take a whole timeout to
   * answer, unless `force`d because its head is needed.
   */
  async #refreshAll(force: boolean): Promise<void> {
    this.#refreshedAtMs = this.#o.now();
    const deadline = this.#o.now() + this.#o.probeWaitMs;
    const awaited: Promise<void>[] = [];
    for (const endpoint of this.#o.endpoints) {
      let probe = this.#probes.get(endpoint);
      if (probe === undefined) {
        probe = this.#probe(endpoint, deadline).finally(() => this.#probes.delete(endpoint));
        this.#probes.set(endpoint, probe);
      }
      if (force || this.#o.healthOf(endpoint).faultsInRow === 0) awaited.push(probe);
    }
    await withinMs(Promise.all(awaited), this.#o.probeWaitMs);
    this.#reportChanges();
  }

  /** Reads one endpoint's head, trying again after faults while that is quick. */
  async #probe(endpoint: E, deadline: number): Promise<void> {
    const health = this.#o.healthOf(endpoint);
    while (this.#o.now() < deadline) {
      const wait = health.coolingMs(this.#o.now());
      if (wait > PROBE_MAX_COOL_WAIT_MS || this.#o.now() + wait >= deadline) return;
      if (wait > 0) await this.#o.sleep(wait);
      try {
        const head = await this.#o.attempt(endpoint, this.#o.readHead);
        this.note(endpoint, head.height, head.timeMs);
        return;
      } catch (error) {
        // A fault is recorded in the endpoint's health and tried again; an answer would be the same.
        if (!(error instanceof EndpointFault)) return;
      }
    }
  }

  #reportChanges(): void {
    const best = this.best();
    for (const e of this.#o.endpoints) {
      this.reportStale(e);
      const behind = !this.isCurrent(e);
      if (behind === this.#behind.has(e)) continue;
      if (behind) this.#behind.add(e);
      else this.#behind.delete(e);
      const head = this.#o.healthOf(e).head?.height ?? null;
      const fields = { chain: this.#o.chain, endpoint: e.label, head, bestHead: best };
      if (behind)
        this.#o.logger?.warn(
          fields,
          "RPC endpoint is behind or its head unknown; not used for current reads",
        );
      else this.#o.logger?.info(fields, "RPC endpoint caught up");
    }
  }
}
