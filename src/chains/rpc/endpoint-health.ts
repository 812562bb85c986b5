/**
 * What the pool knows about one endpoint: its recent faults, its latency, whether it is cooling down
 * (after a rate limit, or after faults in a row) and the last head height it reported.
 */
import type { EndpointFault } from "./errors.js";

export interface HealthPolicy {
  /** Outcomes remembered for the error rate. */
  windowSize: number;
  /** Weight of the newest latency sample in the moving average. */
  latencyWeight: number;
  /** Cool-down after the second fault in a row; doubles with each further one. */
  faultCoolDownMs: number;
  faultCoolDownMaxMs: number;
  /** Cool-down after a rate limit that did not say how long (no Retry-After). */
  rateLimitCoolDownMs: number;
  /** A Retry-After longer than this is cut to it, so that one odd header cannot bench an endpoint for days. */
  rateLimitMaxMs: number;
  /** Cool-down after the endpoint refused us (401/403): retrying at once would be refused again. */
  refusedCoolDownMs: number;
}

export const DEFAULT_HEALTH_POLICY: HealthPolicy = {
  windowSize: 20,
  latencyWeight: 0.2,
  faultCoolDownMs: 100,
  faultCoolDownMaxMs: 10_000,
  rateLimitCoolDownMs: 1_000,
  rateLimitMaxMs: 15 * 60_000,
  refusedCoolDownMs: 30_000,
};

export interface HeadSeen {
  height: number;
  atMs: number;
}

export class EndpointHealth {
  readonly #policy: HealthPolicy;
  /** true = answered, false = fault; newest last. */
  readonly #outcomes: boolean[] = [];
  #faultsInRow = 0;
  #latencyMs: number | null = null;
  #coolUntilMs = 0;
  #coolReason = "";
  #head: HeadSeen | null = null;
  #lastFault: EndpointFault | null = null;

  constructor(policy: HealthPolicy) {
    this.#policy = policy;
  }

  answered(latencyMs: number): void {
    this.#remember(true);
    this.#faultsInRow = 0;
    const w = this.#policy.latencyWeight;
    this.#latencyMs = this.#latencyMs === null ? latencyMs : (1 - w) * this.#latencyMs + w * latencyMs;
  }

  /** Records a fault and starts the cool-down it calls for; returns that cool-down (0 when none). */
  faulted(fault: EndpointFault, nowMs: number): number {
    // A stale head is an answer: the endpoint works, and is passed over for current heads by its head's age.
    if (fault.kind === "stale") {
      this.#lastFault = fault;
      return 0;
    }
    // A rate limit says "not so often", not "unreliable": its cool-down is the whole penalty.
    if (fault.kind !== "rate-limited") {
      this.#remember(false);
      this.#faultsInRow++;
    }
    this.#lastFault = fault;
    const coolMs = this.#coolDownFor(fault);
    if (coolMs > 0 && nowMs + coolMs > this.#coolUntilMs) {
      this.#coolUntilMs = nowMs + coolMs;
      this.#coolReason = fault.kind;
    }
    return coolMs;
  }

  noteHead(height: number, nowMs: number): void {
    this.#head = { height, atMs: nowMs };
  }

  get head(): HeadSeen | null {
    return this.#head;
  }

  /** Faults since the endpoint last answered (rate limits aside). */
  get faultsInRow(): number {
    return this.#faultsInRow;
  }

  get lastFault(): EndpointFault | null {
    return this.#lastFault;
  }

  get latencyMs(): number | null {
    return this.#latencyMs;
  }

  /** Share of faults among the remembered outcomes; 0 before any. */
  get errorRate(): number {
    if (this.#outcomes.length === 0) return 0;
    return this.#outcomes.filter((ok) => !ok).length / this.#outcomes.length;
  }

  coolingMs(nowMs: number): number {
    return Math.max(0, this.#coolUntilMs - nowMs);
  }

  get coolReason(): string {
    return this.#coolReason;
  }

  /**
   * Expected cost of a call in milliseconds: the usual latency, plus a fault's price (about one
   * timeout) times the chance of one. Unknown latency counts as 0 so that a new endpoint gets tried.
   */
  cost(faultPriceMs: number): number {
    return (this.#latencyMs ?? 0) + this.errorRate * faultPriceMs;
  }

  #remember(ok: boolean): void {
    this.#outcomes.push(ok);
    if (this.#outcomes.length > this.#policy.windowSize) this.#outcomes.shift();
  }

  #coolDownFor(fault: EndpointFault): number {
    const p = this.#policy;
    if (fault.kind === "rate-limited")
      return Math.min(fault.retryAfterMs ?? p.rateLimitCoolDownMs, p.rateLimitMaxMs);
    if (fault.kind === "refused") return p.refusedCoolDownMs;
    // One fault may be bad luck: the endpoint stays usable. From the second in a row it backs off.
    if (this.#faultsInRow < 2) return 0;
    return Math.min(p.faultCoolDownMs * 2 ** (this.#faultsInRow - 2), p.faultCoolDownMaxMs);
  }
}
