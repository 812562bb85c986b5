/**
 * JSON helpers of the fault proxy. Replies pass through it, and bitcoind writes BTC amounts as JSON
 * numbers with 8 decimals that a double may not hold exactly: every number token is therefore kept as
 * its text (a marked string) while the proxy looks at a reply, and written back as the same token.
 */
const MARK = "\u0000n:";
const NUMBER_TOKEN = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** JSON.parse that turns every number into a marked string holding its exact text. */
export function parseKeepingNumbers(text: string): unknown {
  let out = "";
  let copiedTo = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      continue;
    }
    if (ch !== "-" && (ch === undefined || ch < "0" || ch > "9")) continue;
    NUMBER_TOKEN.lastIndex = i;
    const token = NUMBER_TOKEN.exec(text)?.[0];
    if (token === undefined) continue;
    out += `${text.slice(copiedTo, i)}"\\u0000n:${token}"`;
    copiedTo = i + token.length;
    i += token.length - 1;
  }
  return JSON.parse(out + text.slice(copiedTo));
}

/** JSON.stringify that writes marked strings back as the number tokens they came from. */
export function stringifyKeepingNumbers(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0000n:(-?[0-9.eE+-]+)"/g, "$1");
}

/** The number a parsed value stands for (marked or plain); null when it is none. */
export function numberOf(value: unknown): number | null {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.startsWith(MARK)) return Number(value.slice(MARK.length));
  return null;
}

/** A block number in EVM hex (`0x1a`) or a plain number; null for tags and anything else. */
export function blockNumberOf(value: unknown): number | null {
  if (typeof value === "string" && /^0x[0-9a-f]+$/i.test(value)) return Number.parseInt(value.slice(2), 16);
  return numberOf(value);
}

export function toHex(n: number): string {
  return `0x${n.toString(16)}`;
}

/** mulberry32: a small seeded generator, so that the same seed injects the same faults in the same order. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
