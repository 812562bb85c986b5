/** The crash loop's figures, per family of swaps and per chain, and whether they show a fault. */
import type { Family } from "./pairs.js";

export interface FamilyFigures {
  family: Family;
  swaps: number;
  completed: number;
  /** SIGKILLs that came while a swap of the family was under way. */
  kills: number;
  /** Orders whose fill landed more than once, judged on their destination chain. */
  doubleFills: string[];
  /** Orders whose destination the user redeemed and whose source the solver did not. */
  missedRedeems: string[];
  /** Assets on the family's chains whose change in the solver's holdings the swaps and fees do not explain. */
  balanceMismatches: string[];
}

export interface ChainFigures {
  chain: string;
  family: Family;
  /** Calls of the solver's that reached the chain's fault proxy, and the faults it injected. */
  rpcCalls: number;
  rpcFaults: number;
}

export interface ChaosReport {
  swaps: number;
  completed: number;
  kills: number;
  /** Starts that failed (the process exited before it said it started) and were tried again. */
  failedStarts: number;
  families: FamilyFigures[];
  chains: ChainFigures[];
  seconds: number;
}

const percent = (part: number, whole: number) => ((100 * part) / Math.max(1, whole)).toFixed(1);
const listed = (items: readonly string[], separator = ", ") =>
  `${items.length}${items.length > 0 ? `: ${items.join(separator)}` : ""}`;

/** The report as lines, and whether every swap completed with no loss shown. */
export function describeReport(report: ChaosReport): { lines: string[]; ok: boolean } {
  const lines = [
    `swaps completed        ${report.completed}/${report.swaps}`,
    `SIGKILLs               ${report.kills} (failed starts retried: ${report.failedStarts})`,
  ];
  for (const f of report.families) {
    lines.push(
      `${f.family}`,
      `  swaps completed      ${f.completed}/${f.swaps}`,
      `  SIGKILLs mid-swap    ${f.kills}`,
    );
    for (const c of report.chains.filter((chain) => chain.family === f.family)) {
      lines.push(
        `  RPC ${c.chain.padEnd(17)}${c.rpcCalls} calls, ${c.rpcFaults} faults (${percent(c.rpcFaults, c.rpcCalls)} %)`,
      );
    }
    lines.push(
      `  double fills         ${listed(f.doubleFills)}`,
      `  missed redeems       ${listed(f.missedRedeems)}`,
      `  balance mismatches   ${listed(f.balanceMismatches, "; ")}`,
    );
  }
  lines.push(`took                   ${report.seconds} s`);
  const ok =
    report.completed === report.swaps &&
    report.families.every(
      (f) => f.doubleFills.length === 0 && f.missedRedeems.length === 0 && f.balanceMismatches.length === 0,
    );
  return { lines, ok };
}
