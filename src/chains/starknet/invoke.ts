/**
 * Signed v3 invokes of the solver's account: the transaction as the node takes it, its hash
 * (`hash.calculateInvokeTransactionHash` over its fields and the chain id) and its journal form, the
 * invoke's JSON as hex. The signature is Stark ECDSA over the hash with the account's key, which the
 * account's `__validate__` checks.
 */
import { hash } from "starknet";
import type { SignedTx } from "../chain.js";
import { feltHex } from "./felt.js";
import { executeCalldata, type ContractCall } from "./htlc-calls.js";
import { starkSign } from "./key.js";
import { chainIdFelt } from "./order-id.js";
import type { InvokeV3 } from "./rpc.js";
import type { StarknetResourceBound, StarknetTxTerms } from "./tx-terms.js";

/** Nonce and fee data availability mode L1, as a hash input. */
const DA_MODE_L1 = 0;

export interface InvokeBounds {
  l1Gas: StarknetResourceBound;
  l2Gas: StarknetResourceBound;
  l1DataGas: StarknetResourceBound;
  tip: bigint;
}

export interface InvokeDraft {
  chainId: string;
  sender: string;
  nonce: bigint;
  calldata: readonly bigint[];
  bounds: InvokeBounds;
}

/** The most a transaction with these bounds can be charged: every bound at its price, and the tip on L2 gas. */
export function maxFeeOf(bounds: InvokeBounds): bigint {
  return (
    bounds.l1Gas.maxAmount * bounds.l1Gas.maxPricePerUnit +
    bounds.l2Gas.maxAmount * bounds.l2Gas.maxPricePerUnit +
    bounds.l1DataGas.maxAmount * bounds.l1DataGas.maxPricePerUnit +
    bounds.tip * bounds.l2Gas.maxAmount
  );
}

function wireBound(bound: StarknetResourceBound) {
  return { max_amount: feltHex(bound.maxAmount), max_price_per_unit: feltHex(bound.maxPricePerUnit) };
}

/** The transaction hash of a draft. */
export function invokeHash(draft: InvokeDraft): bigint {
  const { bounds } = draft;
  const toBn = (bound: StarknetResourceBound) => ({
    max_amount: bound.maxAmount,
    max_price_per_unit: bound.maxPricePerUnit,
  });
  return BigInt(
    hash.calculateInvokeTransactionHash({
      senderAddress: draft.sender,
      version: "0x3",
      compiledCalldata: draft.calldata.map((felt) => felt.toString()),
      chainId: feltHex(chainIdFelt(draft.chainId)) as Parameters<
        typeof hash.calculateInvokeTransactionHash
      >[0]["chainId"],
      nonce: draft.nonce,
      accountDeploymentData: [],
      nonceDataAvailabilityMode: DA_MODE_L1,
      feeDataAvailabilityMode: DA_MODE_L1,
      resourceBounds: {
        l1_gas: toBn(bounds.l1Gas),
        l2_gas: toBn(bounds.l2Gas),
        l1_data_gas: toBn(bounds.l1DataGas),
      },
      tip: bounds.tip,
      paymasterData: [],
    }),
  );
}

/** The draft as the node takes it, with a signature (or none, for a fee estimate that skips validation). */
export function wireInvoke(draft: InvokeDraft, signature: readonly bigint[]): InvokeV3 {
  return {
    type: "INVOKE",
    version: "0x3",
    sender_address: feltHex(BigInt(draft.sender)),
    calldata: draft.calldata.map(feltHex),
    signature: signature.map(feltHex),
    nonce: feltHex(draft.nonce),
    resource_bounds: {
      l1_gas: wireBound(draft.bounds.l1Gas),
      l2_gas: wireBound(draft.bounds.l2Gas),
      l1_data_gas: wireBound(draft.bounds.l1DataGas),
    },
    tip: feltHex(draft.bounds.tip),
    paymaster_data: [],
    account_deployment_data: [],
    nonce_data_availability_mode: "L1",
    fee_data_availability_mode: "L1",
  };
}

/** The draft of the calls, its calldata in the account's multicall form. */
export function callsDraft(base: Omit<InvokeDraft, "calldata">, calls: readonly ContractCall[]): InvokeDraft {
  return { ...base, calldata: executeCalldata(calls) };
}

/** Signs a draft: the journal's `SignedTx`, its raw form the invoke's JSON as hex. */
export function signInvoke(chain: string, draft: InvokeDraft, key: string): SignedTx {
  const txHash = invokeHash(draft);
  const invoke = wireInvoke(draft, starkSign(key, txHash));
  const terms: StarknetTxTerms = {
    family: "starknet",
    l1Gas: draft.bounds.l1Gas,
    l2Gas: draft.bounds.l2Gas,
    l1DataGas: draft.bounds.l1DataGas,
    tip: draft.bounds.tip,
    maxFee: maxFeeOf(draft.bounds),
  };
  return {
    chain,
    txHash: feltHex(txHash),
    raw: Buffer.from(JSON.stringify(invoke), "utf8").toString("hex"),
    nonce: draft.nonce,
    terms,
  };
}

const FELT_TEXT = /^0x[0-9a-f]{1,64}$/;

/** A journaled raw transaction back as the invoke it holds; throws when it is not one this family signed. */
export function invokeOfRaw(raw: string): InvokeV3 {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, "hex").toString("utf8"));
  } catch {
    throw new Error("the raw transaction is not a Starknet invoke's JSON");
  }
  const invoke = value as Partial<InvokeV3>;
  const felts = [
    invoke.sender_address,
    invoke.nonce,
    invoke.tip,
    ...(invoke.calldata ?? [""]),
    ...(invoke.signature ?? [""]),
  ];
  if (
    invoke.type !== "INVOKE" ||
    invoke.version !== "0x3" ||
    !felts.every((f) => typeof f === "string" && FELT_TEXT.test(f))
  )
    throw new Error("the raw transaction is not a signed v3 invoke");
  return invoke as InvokeV3;
}

/** The draft a journaled invoke was signed from. */
export function draftOfInvoke(chainId: string, invoke: InvokeV3): InvokeDraft {
  const bound = (b: { max_amount: string; max_price_per_unit: string }) => ({
    maxAmount: BigInt(b.max_amount),
    maxPricePerUnit: BigInt(b.max_price_per_unit),
  });
  return {
    chainId,
    sender: invoke.sender_address,
    nonce: BigInt(invoke.nonce),
    calldata: invoke.calldata.map((felt) => BigInt(felt)),
    bounds: {
      l1Gas: bound(invoke.resource_bounds.l1_gas),
      l2Gas: bound(invoke.resource_bounds.l2_gas),
      l1DataGas: bound(invoke.resource_bounds.l1_data_gas),
      tip: BigInt(invoke.tip),
    },
  };
}
