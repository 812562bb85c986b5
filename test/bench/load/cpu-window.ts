/**
 * Where the machine's CPU went while the swaps ran: the benchmark's own process (the local service unless
 * it runs apart, the users, the Bitcoin node, the RPC proxies) and the whole machine from /proc/stat. On
 * two cores a saturated machine, not the solver, sets the latency of everything at N = 1000.
 */
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";

export interface CpuShares {
  wallMs: number;
  /** The benchmark's own process, in cores (1 = one core busy the whole window). */
  benchProcessCores: number;
  /** Busy share of all the machine's cores, 0..1; null where /proc/stat cannot be read. */
  machineBusy: number | null;
  machineCores: number;
  /**
   * The longest the benchmark's own event loop was held, ms: while it is held, the local service answers
   * no listing and the Bitcoin node no read, whatever the solver does.
   */
  benchLoopDelayMaxMs: number;
}

interface MachineTicks {
  busy: number;
  total: number;
}

/** The first line of /proc/stat: user nice system idle iowait irq softirq steal ... */
export function machineTicks(stat: string): MachineTicks | null {
  const fields = stat.split("\n")[0]?.trim().split(/\s+/);
  if (fields === undefined || fields[0] !== "cpu") return null;
  const ticks = fields.slice(1, 9).map(Number);
  if (ticks.length < 5 || ticks.some((t) => !Number.isFinite(t))) return null;
  const total = ticks.reduce((sum, t) => sum + t, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: total - idle, total };
}

function readMachineTicks(): MachineTicks | null {
  try {
    return machineTicks(readFileSync("/proc/stat", "utf8"));
  } catch {
    return null;
  }
}

export class CpuWindow {
  readonly #startedMs = performance.now();
  readonly #process = process.cpuUsage();
  readonly #machine = readMachineTicks();
  readonly #loopDelay = startedLoopDelay();

  /** The shares from the window's start to now; the loop delay stops being watched. */
  shares(): CpuShares {
    this.#loopDelay.disable();
    const wallMs = performance.now() - this.#startedMs;
    const used = process.cpuUsage(this.#process);
    const machine = readMachineTicks();
    const start = this.#machine;
    const spanTicks = machine === null || start === null ? 0 : machine.total - start.total;
    return {
      wallMs,
      benchProcessCores: wallMs === 0 ? 0 : (used.user + used.system) / 1000 / wallMs,
      machineBusy:
        machine === null || start === null || spanTicks <= 0 ? null : (machine.busy - start.busy) / spanTicks,
      machineCores: cpus().length,
      benchLoopDelayMaxMs: this.#loopDelay.max / 1e6,
    };
  }
}

function startedLoopDelay(): ReturnType<typeof monitorEventLoopDelay> {
  const histogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  return histogram;
}
