/** JSON with bigints written as exact JSON numbers, as the Solana RPC writes u64 values. */
const MARK = "\u0000bigint:";

export function encodeJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "bigint" ? `${MARK}${v.toString()}` : v,
  );
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, "$1");
}
