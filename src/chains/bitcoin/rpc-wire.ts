/**
 * What travels on the wire between the solver and bitcoind: its errors and error codes, BTC amounts
 * as exact satoshis, and the lossless JSON parsing that keeps those amounts exact.
 *
 * Amounts: bitcoind writes BTC values as JSON numbers with 8 decimals (`0.00012345`). Parsing them with
 * JSON.parse would go through binary floating point, so the response text is first rewritten: every
 * number token outside a string that has a fraction or an exponent (or is too large for a double) is
 * turned into a JSON string holding its exact text, which `btcToSats` then converts with integer
 * arithmetic.
 */

const SATS_PER_BTC = 100_000_000n;

export class BitcoinRpcError extends Error {
  override readonly name = "BitcoinRpcError";
  constructor(
    readonly method: string,
    /** bitcoind's error code, e.g. -26 (rejected), -25 (verify error), -5 (not found), -32601. */
    readonly code: number,
    /** bitcoind's error message, e.g. `bad-txns-inputs-missingorspent`. */
    readonly rpcMessage: string,
  ) {
    super(`bitcoind ${method} failed (code ${code}): ${rpcMessage}`);
  }
}

/** The node could not be reached or answered with something that is not a JSON-RPC reply. */
export class BitcoinRpcTransportError extends Error {
  override readonly name = "BitcoinRpcTransportError";
  constructor(
    readonly method: string,
    readonly reason: string,
    /** HTTP status when the node answered (401 for bad credentials); null when it did not. */
    readonly status: number | null,
    cause?: unknown,
  ) {
    super(`bitcoind ${method} transport failure${status === null ? "" : ` (HTTP ${status})`}: ${reason}`, {
      cause,
    });
  }
}

/** bitcoind's RPC error codes the callers branch on. */
export const RpcErrorCode = {
  MISC_ERROR: -1,
  TYPE_ERROR: -3,
  INVALID_ADDRESS_OR_KEY: -5,
  INVALID_PARAMETER: -8,
  DESERIALIZATION_ERROR: -22,
  VERIFY_ERROR: -25,
  VERIFY_REJECTED: -26,
  VERIFY_ALREADY_IN_CHAIN: -27,
  METHOD_NOT_FOUND: -32601,
  INVALID_REQUEST: -32600,
  INTERNAL_ERROR: -32603,
  PARSE_ERROR: -32700,
} as const;

// ---------------------------------------------------------------------------------------------------
// Amounts and lossless JSON

/** Converts a BTC amount (decimal text such as "0.00012345", "-1", "1e-05", or a safe integer) to sats. */
export function btcToSats(value: string | number): bigint {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new Error(`BTC amount ${value} is not an exact integer`);
    return BigInt(value) * SATS_PER_BTC;
  }
  const match = /^(-?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(value.trim());
  if (match === null) throw new Error(`BTC amount "${value}" is not a decimal number`);
  const [, sign = "", intPart = "0", fracPart = "", expText = "0"] = match;
  // Shift the decimal point by the exponent, then by 8 places for satoshis, as pure digit strings.
  const shift = Number(expText) + 8;
  let digits = intPart + fracPart;
  let pointAt = intPart.length + shift;
  if (pointAt < 0) {
    digits = "0".repeat(-pointAt) + digits;
    pointAt = 0;
  }
  if (pointAt > digits.length) digits = digits + "0".repeat(pointAt - digits.length);
  const whole = digits.slice(0, pointAt) || "0";
  const rest = digits.slice(pointAt);
  if (/[^0]/.test(rest)) throw new Error(`BTC amount "${value}" has more than 8 decimal places`);
  const sats = BigInt(whole);
  return sign === "-" ? -sats : sats;
}

/** Formats sats as bitcoind prints BTC: optional minus sign, integer part, 8 decimals. */
export function satsToBtc(sats: bigint): string {
  const negative = sats < 0n;
  const abs = negative ? -sats : sats;
  const frac = (abs % SATS_PER_BTC).toString().padStart(8, "0");
  return `${negative ? "-" : ""}${abs / SATS_PER_BTC}.${frac}`;
}

const NUMBER_TOKEN = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * JSON.parse that keeps the exact text of non-integer numbers (and of integers beyond 2^53) by turning
 * them into strings; integers that a double holds exactly stay numbers.
 */
export function parseRpcJson(text: string): unknown {
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
    const exactInteger = /^-?\d+$/.test(token) && Number.isSafeInteger(Number(token));
    if (!exactInteger) {
      out += text.slice(copiedTo, i) + `"${token}"`;
      copiedTo = i + token.length;
    }
    i += token.length - 1;
  }
  return JSON.parse(out + text.slice(copiedTo));
}
