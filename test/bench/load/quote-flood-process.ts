/** The quote flood in its own process (quote-flood-main.ts), started and stopped by the benchmark. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BenchChild } from "./child-process.js";
import type { FloodCounts, QuoteFloodSettings } from "./quote-flood.js";

const MAIN = fileURLToPath(new URL("./quote-flood-main.ts", import.meta.url));

export interface RunningFlood {
  child: BenchChild;
  /** Stops the flood and returns what it sent, what came back and the CPU the flood itself used. */
  stop(): Promise<FloodCounts & { cpuMs: number }>;
}

/** Starts the flood and returns once its first request was answered. */
export async function startQuoteFloodProcess(
  settings: QuoteFloodSettings,
  dir: string,
): Promise<RunningFlood> {
  const settingsFile = join(dir, "quote-flood.json");
  const countsFile = join(dir, "quote-flood-counts.json");
  writeFileSync(settingsFile, JSON.stringify(settings), { mode: 0o600 });
  const child = new BenchChild(
    "quote flood",
    ["--import", "tsx", MAIN, settingsFile, countsFile],
    join(dir, "quote-flood.log"),
  );
  const started = `${countsFile}.started`;
  await child.waitUntil(() => Promise.resolve(existsSync(started)), started, 60_000);
  return {
    child,
    stop: async () => {
      const cpuMs = child.cpuMs();
      await child.stopCleanly();
      if (!existsSync(countsFile)) throw new Error(`the quote flood left no counts; see ${child.logFile}`);
      return { ...(JSON.parse(readFileSync(countsFile, "utf8")) as FloodCounts), cpuMs };
    },
  };
}
