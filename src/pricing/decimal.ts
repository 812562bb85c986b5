/**
 * Exact decimal arithmetic for prices and amounts. Prices arrive as decimal strings and amounts as bigint
 * smallest units; everything is kept as integer ratios so that no step loses precision before the one
 * deliberate rounding at the end.
 */

/** A non-negative decimal number written in base 10, e.g. `"3000.25"`. */
export type DecimalString = string;

/** A non-negative rational number `num / den` with `den > 0`. */
export interface Ratio {
  num: bigint;
  den: bigint;
}

const DECIMAL_PATTERN = /^(\d+)(?:\.(\d+))?$/;

export class InvalidDecimalError extends Error {
  constructor(
    readonly input: string,
    what: string,
  ) {
    super(`${what} must be a non-negative decimal string like "12.5", got ${JSON.stringify(input)}`);
    this.name = "InvalidDecimalError";
  }
}

/** Parses a decimal string into an exact ratio (`"12.50"` → 1250/100). `what` names the value in errors. */
export function parseDecimal(input: string, what = "value"): Ratio {
  const match = DECIMAL_PATTERN.exec(input);
  if (match === null) throw new InvalidDecimalError(input, what);
  const whole = match[1] ?? "0";
  const fraction = match[2] ?? "";
  return { num: BigInt(whole + fraction), den: 10n ** BigInt(fraction.length) };
}

export function pow10(exponent: number): bigint {
  return 10n ** BigInt(exponent);
}

export function floorRatio(value: Ratio): bigint {
  return value.num / value.den;
}

export function ceilRatio(value: Ratio): bigint {
  return (value.num + value.den - 1n) / value.den;
}

export function mulRatio(a: Ratio, b: Ratio): Ratio {
  return { num: a.num * b.num, den: a.den * b.den };
}

/** Writes `amount / 10^decimals` exactly, without trailing zeros (`1500000, 6` → `"1.5"`). */
export function formatUnits(amount: bigint, decimals: number): DecimalString {
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  const sign = negative ? "-" : "";
  return fraction === "" ? `${sign}${whole}` : `${sign}${whole}.${fraction}`;
}

/** Writes a cent count as dollars with exactly two decimals (`12345n` → `"123.45"`). */
export function formatCents(cents: bigint): DecimalString {
  const digits = cents.toString().padStart(3, "0");
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

export function compareRatios(a: Ratio, b: Ratio): -1 | 0 | 1 {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

export function addRatios(a: Ratio, b: Ratio): Ratio {
  return { num: a.num * b.den + b.num * a.den, den: a.den * b.den };
}

export class InexactDecimalError extends Error {
  constructor(value: Ratio) {
    super(`${value.num}/${value.den} has no finite decimal form`);
    this.name = "InexactDecimalError";
  }
}

/**
 * Writes a ratio as an exact decimal string (`3/2` → `"1.5"`). Only ratios whose denominator divides a
 * power of ten have one; a median of decimal prices always does, since it halves at most once.
 */
export function ratioToDecimal(value: Ratio): DecimalString {
  let den = value.den;
  let twos = 0;
  let fives = 0;
  while (den % 2n === 0n) {
    den /= 2n;
    twos += 1;
  }
  while (den % 5n === 0n) {
    den /= 5n;
    fives += 1;
  }
  if (den !== 1n) throw new InexactDecimalError(value);
  const digits = Math.max(twos, fives);
  const scaled = (value.num * pow10(digits)) / value.den;
  return formatUnits(scaled, digits);
}
