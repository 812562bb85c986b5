/**
 * The journal's JSON for values holding bigints: each bigint is stored as `{"$bigint": "<decimal>"}`, so
 * amounts round-trip exactly and SQL can still reach one (`bigintPath`).
 */
const BIGINT_KEY = "$bigint";

export function toJournalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === "bigint" ? { [BIGINT_KEY]: inner.toString() } : inner,
  );
}

export function fromJournalJson<T>(text: string): T {
  return JSON.parse(text, (_key, value: unknown) =>
    value !== null && typeof value === "object" && BIGINT_KEY in value
      ? BigInt((value as Record<typeof BIGINT_KEY, string>)[BIGINT_KEY])
      : value,
  ) as T;
}

/** The SQLite JSON path of a bigint's decimal text at `path` (e.g. `$.params.amount`). */
export function bigintPath(path: string): string {
  return `${path}."${BIGINT_KEY}"`;
}
