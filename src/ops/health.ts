/** What the daemon reports at GET /health. */
export interface HealthReport {
  healthy: boolean;
  /** Why it is not healthy (empty when healthy), each naming the failing part. */
  reasons: string[];
  /** Optional detail per part, e.g. `{ ethereum: { tip: "123", lagSeconds: 4 } }`; bigints allowed. */
  checks?: Record<string, unknown>;
}

/** Builds a report from named checks: each returns null when fine or the reason it is not. */
export function healthFromChecks(checks: Record<string, string | null>): HealthReport {
  const reasons = Object.entries(checks)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([name, reason]) => `${name}: ${reason}`);
  return { healthy: reasons.length === 0, reasons };
}
