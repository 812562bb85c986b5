import { RpcErrorCode } from "htlc-solver/chains/bitcoin/rpc.js";
/** bitcoind's RPC error codes: the same table the client branches on. */
export const RPC_CODE = RpcErrorCode;

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
