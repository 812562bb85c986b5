/** Plain-text tables for people: columns padded to their widest cell, two spaces apart. */

export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}

/** `2030-01-01T00:00:00.000Z` as `2030-01-01 00:00:00` (UTC). */
export function shortTime(isoTime: string): string {
  return isoTime
    .replace("T", " ")
    .replace(/\.\d+Z$/, "")
    .replace(/Z$/, "");
}

/** A cell for an absent value. */
export const NONE = "-";

export function orNone(value: string | null | undefined): string {
  return value === null || value === undefined || value === "" ? NONE : value;
}
