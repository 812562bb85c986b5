/**
 * The calls the solver makes on a Starknet HTLC and its token, and the HTLC's stored order and events,
 * in the contract's Cairo serialisation (docs/protocol.md, Starknet): u256 = [low, high], `[u32; 8]` =
 * eight felts, `Array<T>` = [len, ...items].
 */
import { hash, transaction } from "starknet";
import { addressHex, feltHex, secretHashWords, u256Felts, u256Of } from "./felt.js";

export const SELECTORS = {
  getOrder: hash.getSelectorFromName("get_order"),
  initiate: hash.getSelectorFromName("initiate"),
  redeem: hash.getSelectorFromName("redeem"),
  refund: hash.getSelectorFromName("refund"),
  instantRefund: hash.getSelectorFromName("instant_refund"),
  approve: hash.getSelectorFromName("approve"),
  balanceOf: hash.getSelectorFromName("balance_of"),
  allowance: hash.getSelectorFromName("allowance"),
  transfer: hash.getSelectorFromName("transfer"),
} as const;

export const EVENT_KEYS = {
  initiated: BigInt(hash.getSelectorFromName("Initiated")),
  redeemed: BigInt(hash.getSelectorFromName("Redeemed")),
  refunded: BigInt(hash.getSelectorFromName("Refunded")),
} as const;

/** One call of a multicall: contract, entry point name and its calldata. */
export interface ContractCall {
  to: string;
  entrypoint: string;
  calldata: bigint[];
}

export function approveCall(token: string, spender: string, amount: bigint): ContractCall {
  return { to: token, entrypoint: "approve", calldata: [BigInt(spender), ...u256Felts(amount)] };
}

export function transferCall(token: string, to: string, amount: bigint): ContractCall {
  return { to: token, entrypoint: "transfer", calldata: [BigInt(to), ...u256Felts(amount)] };
}

export interface InitiateTerms {
  redeemer: string;
  timelock: bigint;
  amount: bigint;
  secretHash: string;
}

/** `initiate(redeemer, timelock, amount, secret_hash)`: the published order's `transaction` calldata. */
export function initiateCall(htlc: string, terms: InitiateTerms): ContractCall {
  return {
    to: htlc,
    entrypoint: "initiate",
    calldata: [
      BigInt(terms.redeemer),
      terms.timelock,
      ...u256Felts(terms.amount),
      ...secretHashWords(terms.secretHash),
    ],
  };
}

/** `redeem(order_id, secret: Array<u32>)`. */
export function redeemCall(htlc: string, orderId: bigint, secretWords: readonly bigint[]): ContractCall {
  return {
    to: htlc,
    entrypoint: "redeem",
    calldata: [orderId, BigInt(secretWords.length), ...secretWords],
  };
}

export function refundCall(htlc: string, orderId: bigint): ContractCall {
  return { to: htlc, entrypoint: "refund", calldata: [orderId] };
}

/** `instant_refund(order_id, signature: Array<felt>)` with the redeemer's [r, s]. */
export function instantRefundCall(htlc: string, orderId: bigint, signature: readonly bigint[]): ContractCall {
  return {
    to: htlc,
    entrypoint: "instant_refund",
    calldata: [orderId, BigInt(signature.length), ...signature],
  };
}

/** The account's `__execute__` calldata, Cairo 1 multicall form, as the SDK builds it. */
export function executeCalldata(calls: readonly ContractCall[]): bigint[] {
  const sdkCalls = calls.map((call) => ({
    contractAddress: call.to,
    entrypoint: call.entrypoint,
    calldata: call.calldata,
  }));
  return transaction.getExecuteCalldata(sdkCalls, "1").map((felt) => BigInt(felt));
}

/** A call read back from `__execute__` calldata: contract, selector and calldata. */
export interface ExecutedCall {
  to: bigint;
  selector: bigint;
  calldata: bigint[];
}

/** The calls of `__execute__` calldata; throws when it is not the Cairo 1 multicall form. */
export function decodeExecuteCalldata(felts: readonly bigint[]): ExecutedCall[] {
  const count = Number(felts[0] ?? -1n);
  const calls: ExecutedCall[] = [];
  let at = 1;
  for (let i = 0; i < count; i++) {
    const [to, selector, length] = [felts[at], felts[at + 1], felts[at + 2]];
    if (
      to === undefined ||
      selector === undefined ||
      length === undefined ||
      at + 3 + Number(length) > felts.length
    )
      throw new Error("calldata is not a Cairo 1 multicall");
    calls.push({ to, selector, calldata: felts.slice(at + 3, at + 3 + Number(length)) });
    at += 3 + Number(length);
  }
  if (count < 0 || at !== felts.length) throw new Error("calldata is not a Cairo 1 multicall");
  return calls;
}

/** An order as `get_order` returns it; null for an id never initiated (seven zeros). */
export interface StoredOrder {
  isFulfilled: boolean;
  initiator: string;
  redeemer: string;
  initiatedAt: bigint;
  timelock: bigint;
  amount: bigint;
}

/** `get_order`'s seven felts as an order; throws naming the field a node got wrong. */
export function decodeOrder(felts: readonly bigint[]): StoredOrder | null {
  if (felts.length !== 7) throw new Error(`get_order returned ${felts.length} felts, not 7`);
  const [fulfilled, initiator, redeemer, initiatedAt, timelock, low, high] = felts as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  if (felts.every((f) => f === 0n)) return null;
  if (fulfilled > 1n) throw new Error(`get_order's is_fulfilled is ${feltHex(fulfilled)}, not 0 or 1`);
  if (redeemer === 0n || initiator === 0n)
    throw new Error("get_order returned an order without an initiator or redeemer");
  if (initiatedAt >= 2n ** 64n || timelock >= 2n ** 128n)
    throw new Error("get_order returned an initiation block or timelock out of range");
  return {
    isFulfilled: fulfilled === 1n,
    initiator: addressHex(initiator),
    redeemer: addressHex(redeemer),
    initiatedAt,
    timelock,
    amount: u256Of(low, high),
  };
}
