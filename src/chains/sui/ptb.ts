/**
 * The programmable transactions of the AtomicSwap module's calls (docs/protocol.md, Sui), built offline
 * with the SDK's `Transaction`. The initiate is laid out as the service's `ptb_bytes` are (the amount's
 * input first, used by both the split and the call), so that the solver's fill and a user's initiation
 * take the same shape.
 */
import { Transaction, type TransactionObjectArgument } from "@mysten/sui/transactions";
import { hex32Bytes, SUI_CLOCK, SUI_COIN_TYPE } from "./address.js";

export interface SuiObjectRef {
  objectId: string;
  version: string;
  digest: string;
}

/** The module's target for one asset: package, coin type, and its registry as a shared object. */
export interface SuiSwapTarget {
  packageId: string;
  coinType: string;
  registry: { objectId: string; initialSharedVersion: bigint };
}

export interface SuiInitiateTerms {
  initiator: string;
  redeemer: string;
  /** 32 bytes hex without `0x`. */
  secretHash: string;
  amount: bigint;
  /** ms. */
  timelock: bigint;
}

/** Where an initiate's coin comes from: the gas coin (SUI), or the wallet's coins of the type, merged. */
export type SuiCoinSource = { kind: "gas" } | { kind: "coins"; coins: readonly SuiObjectRef[] };

function call(target: SuiSwapTarget, fn: string): string {
  return `${target.packageId}::AtomicSwap::${fn}`;
}

function registryArg(tx: Transaction, target: SuiSwapTarget) {
  return tx.sharedObjectRef({
    objectId: target.registry.objectId,
    initialSharedVersion: target.registry.initialSharedVersion.toString(),
    mutable: true,
  });
}

function clockArg(tx: Transaction) {
  return tx.sharedObjectRef({ ...SUI_CLOCK, mutable: false });
}

/** Splits the amount from its source and locks it with `initiate`. */
export function addInitiate(
  tx: Transaction,
  target: SuiSwapTarget,
  terms: SuiInitiateTerms,
  source: SuiCoinSource,
): void {
  if ((source.kind === "gas") !== (target.coinType === SUI_COIN_TYPE))
    throw new Error(`an initiate of ${target.coinType} cannot take its coin from ${source.kind}`);
  const amount = tx.pure.u64(terms.amount);
  let from: TransactionObjectArgument = tx.gas;
  if (source.kind === "coins") {
    const [first, ...rest] = source.coins.map((coin) => tx.objectRef(coin));
    if (first === undefined) throw new Error(`no coin of ${target.coinType} to initiate with`);
    if (rest.length > 0) tx.mergeCoins(first, rest);
    from = first;
  }
  const coin = tx.splitCoins(from, [amount]);
  tx.moveCall({
    target: call(target, "initiate"),
    typeArguments: [target.coinType],
    arguments: [
      registryArg(tx, target),
      tx.pure.address(terms.initiator),
      tx.pure.address(terms.redeemer),
      tx.pure.vector("u8", hex32Bytes(terms.secretHash, "secret hash")),
      amount,
      tx.pure.u256(terms.timelock),
      tx.pure.vector("u8", []),
      coin,
      clockArg(tx),
    ],
  });
}

export function addRedeem(
  tx: Transaction,
  target: SuiSwapTarget,
  orderId: Uint8Array,
  secret: Uint8Array,
): void {
  tx.moveCall({
    target: call(target, "redeem"),
    typeArguments: [target.coinType],
    arguments: [registryArg(tx, target), tx.pure.vector("u8", orderId), tx.pure.vector("u8", secret)],
  });
}

export function addRefund(tx: Transaction, target: SuiSwapTarget, orderId: Uint8Array): void {
  tx.moveCall({
    target: call(target, "refund"),
    typeArguments: [target.coinType],
    arguments: [registryArg(tx, target), tx.pure.vector("u8", orderId), clockArg(tx)],
  });
}

/** The redeemer's cancel: valid only when its sender is the order's redeemer. */
export function addInstantRefund(tx: Transaction, target: SuiSwapTarget, orderId: Uint8Array): void {
  tx.moveCall({
    target: call(target, "instant_refund"),
    typeArguments: [target.coinType],
    arguments: [registryArg(tx, target), tx.pure.vector("u8", orderId)],
  });
}

/** The BCS `TransactionKind` of an initiate, as the service hands a user its `ptb_bytes`. */
export async function initiateKindBytes(
  target: SuiSwapTarget,
  terms: SuiInitiateTerms,
  source: SuiCoinSource,
): Promise<Uint8Array> {
  const tx = new Transaction();
  addInitiate(tx, target, terms, source);
  return tx.build({ onlyTransactionKind: true });
}
