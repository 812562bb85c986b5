/** Building and signing a v3 invoke of some calls from an account, as a wallet does. */
import { ec, transaction } from "starknet";
import { feltHex } from "./felt.js";
import { invokeHash, invokeJson, type InvokeV3, type ResourceBounds } from "./invoke-txn.js";

export interface StarknetCall {
  to: bigint | string;
  entrypoint: string;
  calldata: readonly (bigint | string | number)[];
}

/** The account's `__execute__` calldata for the calls (Cairo 1 multicall form). */
export function executeCalldata(calls: readonly StarknetCall[]): bigint[] {
  const encoded = transaction.getExecuteCalldata(
    calls.map((call) => ({
      contractAddress: typeof call.to === "bigint" ? feltHex(call.to) : call.to,
      entrypoint: call.entrypoint,
      calldata: call.calldata.map((v) => (typeof v === "bigint" ? feltHex(v) : String(v))),
    })),
    "1",
  );
  return (encoded as string[]).map((v) => BigInt(v));
}

export function starkSign(messageHash: bigint, privateKey: string): [bigint, bigint] {
  const signature = ec.starkCurve.sign(feltHex(messageHash), privateKey);
  return [signature.r, signature.s];
}

export interface UnsignedInvoke {
  senderAddress: bigint;
  calldata: bigint[];
  nonce: bigint;
  resourceBounds: ResourceBounds;
  tip: bigint;
  /** 3, or 2^128 + 3 for a fee-estimation query. */
  version?: bigint;
}

export function signInvoke(
  unsigned: UnsignedInvoke,
  privateKey: string,
  chainId: bigint,
): { tx: InvokeV3; hash: bigint } {
  const tx: InvokeV3 = {
    version: unsigned.version ?? 3n,
    senderAddress: unsigned.senderAddress,
    calldata: unsigned.calldata,
    signature: [],
    nonce: unsigned.nonce,
    resourceBounds: unsigned.resourceBounds,
    tip: unsigned.tip,
    paymasterData: [],
    accountDeploymentData: [],
    nonceDataAvailabilityMode: "L1",
    feeDataAvailabilityMode: "L1",
  };
  const hash = invokeHash(tx, chainId);
  return { tx: { ...tx, signature: starkSign(hash, privateKey) }, hash };
}

/** The BROADCASTED_INVOKE_TXN body `starknet_addInvokeTransaction` and `starknet_estimateFee` take. */
export function broadcastJson(tx: InvokeV3): Omit<ReturnType<typeof invokeJson>, "transaction_hash"> {
  const { transaction_hash: _hash, ...body } = invokeJson(tx, 0n);
  return body;
}
