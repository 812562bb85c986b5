/** JSON text in which bigints are decimal strings (JSON numbers would lose precision above 2^53). */
export function toJson(value: unknown, indent?: number): string {
  return JSON.stringify(
    value,
    (_key, inner: unknown) => (typeof inner === "bigint" ? inner.toString() : inner),
    indent,
  );
}
