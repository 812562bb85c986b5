/**
 * `solver config check --online`: what only the network can tell of a valid configuration. Each chain's
 * family checks its endpoints, contracts or programs and tokens; the service is asked with the app id.
 * Each problem names its key, like the offline ones. Nothing is sent that moves funds.
 */
import { familyOf } from "../chains/registry.js";
import { OrderbookClient } from "../orderbook/client.js";
import { ServiceError } from "../orderbook/errors.js";
import { redactUrlsInText } from "./redact-url.js";
import type { SolverConfig } from "./types.js";

async function serviceProblems(config: SolverConfig): Promise<string[]> {
  const client = new OrderbookClient({
    baseUrl: config.service.url,
    appId: config.service.appId,
    maxAttempts: 1,
  });
  try {
    await client.chains();
    return [];
  } catch (error) {
    if (error instanceof ServiceError && (error.httpStatus === 401 || error.httpStatus === 403))
      return [`service.appId: the service refused it (HTTP ${error.httpStatus} on GET /v2/chains)`];
    const text = error instanceof Error ? error.message : String(error);
    return [`service.url: GET /v2/chains failed (${redactUrlsInText(text)})`];
  }
}

/** Every problem found, as `<key>: <what differed>`; empty when everything answered as configured. */
export async function checkConfigOnline(config: SolverConfig): Promise<string[]> {
  const chains = config.chains.map(async (chain, index) => {
    const family = familyOf(chain.family);
    if (family.checkOnline === undefined) return [];
    const problems = await family.checkOnline(chain);
    return problems.map((p) => `chains[${index}].${p.key}: ${p.message}`);
  });
  const found = await Promise.all([serviceProblems(config), ...chains]);
  return found.flat();
}
