/**
 * The solver under load runs as its own process (`node bin/solver.js run --config <profile>`), so its
 * CPU time is its own (see child-process.ts).
 */
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { answers, BenchChild } from "./child-process.js";

const BIN = fileURLToPath(new URL("../../../bin/solver.js", import.meta.url));

export interface SolverProcessOptions {
  profile: string;
  logFile: string;
  /** The solver's quote endpoint and ops server, to know when it is up. */
  quoteUrl: string;
  opsUrl: string;
  startTimeoutMs?: number;
  /** Arguments for the solver's node before its script, e.g. `--cpu-prof` to profile it under load. */
  nodeArgs?: readonly string[];
}

/** Starts the solver and waits until its quote endpoint and its ops server answer. */
export async function startSolverProcess(options: SolverProcessOptions): Promise<BenchChild> {
  const args = [...(options.nodeArgs ?? []), BIN, "run", "--config", options.profile];
  const solver = new BenchChild("solver", args, options.logFile, { ...process.env, SOLVER_CONFIG: "" });
  const quoteHealth = new URL("health", options.quoteUrl.replace(/quote$/, "")).toString();
  const opsHealth = `${options.opsUrl}/health`;
  await solver.waitUntil(
    async () => (await answers(quoteHealth)) && (await answers(opsHealth)),
    `quote ${quoteHealth}, ops ${opsHealth}`,
    options.startTimeoutMs ?? 90_000,
  );
  return solver;
}

/** Bytes of a SQLite database with its write-ahead log and shared-memory index. */
export function databaseBytes(path: string): number {
  let total = 0;
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      total += statSync(`${path}${suffix}`).size;
    } catch {
      // Not every file exists at every moment.
    }
  }
  return total;
}
