/**
 * Exact USD values: an amount in smallest units times a decimal price is a finite decimal, kept as an
 * integer count of 10^-scale dollars. Sums stay exact; rounding happens only when a value is shown.
 */
import { parseDecimal, pow10, type DecimalString } from "../pricing/decimal.js";

export interface Usd {
  /** Value × 10^scale. */
  units: bigint;
  scale: number;
}

export const ZERO_USD: Usd = { units: 0n, scale: 0 };

/** `amount` smallest units of an asset with `decimals`, at `price` USD per whole unit. */
export function usdValue(amount: bigint, decimals: number, price: DecimalString): Usd {
  const ratio = parseDecimal(price, "USD price");
  // ratio.den is 10^k: the value is amount × num / 10^(k + decimals).
  const k = ratio.den.toString().length - 1;
  return { units: amount * ratio.num, scale: k + decimals };
}

function rescale(value: Usd, scale: number): bigint {
  return value.units * pow10(scale - value.scale);
}

export function addUsd(a: Usd, b: Usd): Usd {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
}

export function sumUsd(values: Iterable<Usd>): Usd {
  let total = ZERO_USD;
  for (const value of values) total = addUsd(total, value);
  return total;
}

export function usdEquals(a: Usd, b: Usd): boolean {
  const scale = Math.max(a.scale, b.scale);
  return rescale(a, scale) === rescale(b, scale);
}

/** The exact value as a decimal string without trailing zeros (`-12.3400` → `"-12.34"`). */
export function exactUsd(value: Usd): DecimalString {
  const negative = value.units < 0n;
  const digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, "0");
  const whole = digits.slice(0, digits.length - value.scale);
  const fraction = digits.slice(digits.length - value.scale).replace(/0+$/, "");
  const text = fraction === "" ? whole : `${whole}.${fraction}`;
  return negative && text !== "0" ? `-${text}` : text;
}

/** Rounded to whole cents, half away from zero, with two decimals (`-0.005` → `"-0.01"`). */
export function centsUsd(value: Usd): DecimalString {
  const negative = value.units < 0n;
  const magnitude = negative ? -value.units : value.units;
  let cents: bigint;
  if (value.scale <= 2) cents = magnitude * pow10(2 - value.scale);
  else {
    const divisor = pow10(value.scale - 2);
    cents = (magnitude + divisor / 2n) / divisor;
  }
  const digits = cents.toString().padStart(3, "0");
  const text = `${digits.slice(0, -2)}.${digits.slice(-2)}`;
  return negative && cents !== 0n ? `-${text}` : text;
}

/** For metrics only: a float is enough to watch, never to account. */
export function usdToNumber(value: Usd): number {
  return Number(exactUsd(value));
}

/** Reads back what exactUsd wrote. */
export function parseUsd(exact: DecimalString): Usd {
  const negative = exact.startsWith("-");
  const ratio = parseDecimal(negative ? exact.slice(1) : exact, "USD value");
  return { units: negative ? -ratio.num : ratio.num, scale: ratio.den.toString().length - 1 };
}
