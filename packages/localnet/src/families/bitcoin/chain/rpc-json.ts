import { satsToBtc } from "htlc-solver/chains/bitcoin/rpc.js";

/** A BTC amount to be written as bitcoind writes it: a JSON number with 8 decimals. */
export class BtcAmount {
  constructor(readonly sats: bigint) {}
}

export type JsonValue =
  null | boolean | number | string | BtcAmount | JsonValue[] | { [key: string]: JsonValue | undefined };

/** JSON text of a value; BtcAmount becomes an exact decimal number, undefined fields are left out. */
export function encodeJson(value: JsonValue): string {
  if (value instanceof BtcAmount) return satsToBtc(value.sats);
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(encodeJson).join(",")}]`;
  const fields = Object.entries(value)
    .filter((entry): entry is [string, JsonValue] => entry[1] !== undefined)
    .map(([key, v]) => `${JSON.stringify(key)}:${encodeJson(v)}`);
  return `{${fields.join(",")}}`;
}
