/** bitcoind's RPC error codes used by the local node. */
export const RPC_CODE = {
  MISC_ERROR: -1,
  TYPE_ERROR: -3,
  INVALID_ADDRESS_OR_KEY: -5,
  INVALID_PARAMETER: -8,
  DESERIALIZATION_ERROR: -22,
  VERIFY_ERROR: -25,
  VERIFY_REJECTED: -26,
  VERIFY_ALREADY_IN_CHAIN: -27,
  INTERNAL_ERROR: -32603,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  PARSE_ERROR: -32700,
} as const;

/** An RPC call failed the way bitcoind would fail it: the code and message go on the wire. */
export class RpcMethodError extends Error {
  override readonly name = "RpcMethodError";
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A transaction was refused by the mempool or by block validation. `reason` is bitcoind's reject
 * reason (what testmempoolaccept reports); `message` adds bitcoind's debug text after a comma, as
 * sendrawtransaction reports it.
 */
export class TxRejectedError extends Error {
  override readonly name = "TxRejectedError";
  constructor(
    readonly reason: string,
    readonly debug = "",
    /** Missing inputs are reported as code -25 and "missing-inputs" by bitcoind; everything else -26. */
    readonly missingInputs = false,
  ) {
    super(debug === "" ? reason : `${reason}, ${debug}`);
  }
}

/** Bitcoin Core's FormatMoney: BTC with trailing zeros trimmed down to two decimals. */
export function formatMoney(sats: bigint): string {
  const negative = sats < 0n;
  const abs = negative ? -sats : sats;
  let text = `${abs / 100_000_000n}.${(abs % 100_000_000n).toString().padStart(8, "0")}`;
  while (text.endsWith("0") && text.length - text.indexOf(".") > 3) text = text.slice(0, -1);
  return negative ? `-${text}` : text;
}

/** Bitcoin Core's CFeeRate::ToString for a rate computed as fee*1000/vsize. */
export function formatFeeRate(feeSats: bigint, vsize: number): string {
  const perK = (feeSats * 1000n) / BigInt(vsize);
  return `${perK / 100_000_000n}.${(perK % 100_000_000n).toString().padStart(8, "0")} BTC/kvB`;
}
