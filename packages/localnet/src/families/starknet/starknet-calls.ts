/**
 * The HTLC calls of the local system beyond the solver's own (src/chains/starknet/htlc-calls.ts): the
 * relayed `initiate_with_signature`, the terms every initiate of a swap record takes, and a call in the
 * form the create-order answer prints it (`transaction`: `{to, selector, calldata}`, felts as hex, as the
 * live service's published order).
 */
import { hash } from "starknet";
import { feltHex, secretHashWords, u256Felts } from "htlc-solver/chains/starknet/felt.js";
import type { ContractCall, InitiateTerms } from "htlc-solver/chains/starknet/htlc-calls.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";

/** The terms every initiate of a swap record takes. */
export function initiateTermsOf(swap: SwapRecord): InitiateTerms {
  return {
    redeemer: swap.redeemer,
    timelock: BigInt(swap.timelock),
    amount: BigInt(swap.amount),
    secretHash: swap.secret_hash,
  };
}

export interface InitiateBySignatureTerms extends InitiateTerms {
  initiator: string;
}

/** `initiate_with_signature(initiator, redeemer, timelock, amount, secret_hash, signature: Array<felt>)`. */
export function initiateWithSignatureCall(
  htlc: string,
  terms: InitiateBySignatureTerms,
  signature: readonly bigint[],
): ContractCall {
  return {
    to: htlc,
    entrypoint: "initiate_with_signature",
    calldata: [
      BigInt(terms.initiator),
      BigInt(terms.redeemer),
      terms.timelock,
      ...u256Felts(terms.amount),
      ...secretHashWords(terms.secretHash),
      BigInt(signature.length),
      ...signature,
    ],
  };
}

/** The call as the API prints it. */
export function apiTransaction(call: ContractCall): { to: string; selector: string; calldata: string[] } {
  return {
    to: feltHex(BigInt(call.to)),
    selector: hash.getSelectorFromName(call.entrypoint),
    calldata: call.calldata.map(feltHex),
  };
}
