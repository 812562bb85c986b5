/** GET /health: `healthy` with each chain's tip, or `degraded` with null for a chain that does not answer. */
import type { ServiceContext } from "../context.js";

export interface HealthResult {
  status: "healthy" | "degraded";
  chains: Record<string, number | null>;
}

export async function getHealth(ctx: ServiceContext): Promise<HealthResult> {
  const entries = await Promise.all(
    [...ctx.chains.entries()].map(async ([name, chain]) => {
      try {
        return [name, Number(await chain.watcher.tipHeight())] as const;
      } catch {
        return [name, null] as const;
      }
    }),
  );
  const chains = Object.fromEntries(entries);
  return { status: entries.every(([, tip]) => tip !== null) ? "healthy" : "degraded", chains };
}
