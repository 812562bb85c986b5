/**
 * Executes an admitted transaction against the object store, all or nothing: the commands run on an
 * `Execution`; on success its writes are committed, on failure (a Move abort, an argument error, gas) they
 * are dropped and only the gas charge and the version bump of the mutable inputs remain, as on Sui. The
 * gas payment coins are merged into the first; during the run the gas coin holds its balance less the
 * budget. Returns the effects, events, object and balance changes of the transaction.
 */
import type { BalanceChange, SuiObjectChange, TransactionEffects } from "@mysten/sui/client";
import { fromBase58, toBase58 } from "@mysten/sui/utils";
import type { AdmittedTransaction } from "./admitted.js";
import { ExecutionFailure } from "./execution-failure.js";
import { Execution, type EmittedEvent } from "./execution.js";
import { computationUnits, netGasCharge, rebateOf, STORAGE_PRICE, type GasSummary } from "./gas.js";
import type { MoveModuleModel } from "./move-call.js";
import type { ObjectStore } from "./object-store.js";
import { displayType, objectDigest, storageBytes, typeOf, type SuiObject } from "./objects.js";
import { ownedRefJson, ownerJson, refJson } from "./owner-json.js";
import { runProgrammable } from "./ptb-runner.js";

export interface ExecutedTransaction {
  digest: string;
  sender: string;
  ok: boolean;
  effects: TransactionEffects;
  events: EmittedEvent[];
  objectChanges: SuiObjectChange[];
  balanceChanges: BalanceChange[];
  gas: GasSummary;
  timestampMs: bigint;
}

export interface ExecutionEnvironment {
  store: ObjectStore;
  packageId: string;
  modules: ReadonlyMap<string, MoveModuleModel>;
  timestampMs: bigint;
}

function coinBalance(object: SuiObject): bigint {
  if (object.contents.kind !== "coin") throw new Error(`gas object ${object.id} is not a coin`);
  return object.contents.balance;
}

/** A fresh run with the gas coins merged and the budget set aside. */
function prepare(tx: AdmittedTransaction, env: ExecutionEnvironment): Execution {
  const execution = new Execution(env.store, tx.sender, fromBase58(tx.digest), env.timestampMs);
  const [first, ...others] = tx.gasPayment.map((ref) => env.store.get(ref.id)!);
  let total = coinBalance(first!);
  for (const other of others) {
    total += coinBalance(other);
    execution.remove(other.id);
  }
  setGasBalance(execution, first!, total - tx.gasBudget);
  return execution;
}

function setGasBalance(execution: Execution, gasCoin: SuiObject, balance: bigint): void {
  const { contents } = gasCoin;
  if (contents.kind !== "coin") throw new Error(`gas object ${gasCoin.id} is not a coin`);
  execution.put({ ...gasCoin, contents: { ...contents, balance } });
}

/** Objects a transaction rewrites whether or not it succeeds: the gas coin and every mutable input. */
function alwaysWritten(tx: AdmittedTransaction): string[] {
  const mutableInputs = tx.inputs.flatMap((input) =>
    input.kind === "object" && input.mutable ? [input.id] : [],
  );
  return [tx.gasPayment[0]!.id, ...mutableInputs];
}

function storageOf(
  execution: Execution,
  written: Iterable<string>,
  env: ExecutionEnvironment,
): { storageCost: bigint; storageRebate: bigint; nonRefundableStorageFee: bigint } {
  let storageCost = 0n;
  let storageRebate = 0n;
  let nonRefundableStorageFee = 0n;
  for (const id of written) {
    const after = execution.get(id);
    if (after !== undefined) storageCost += storageBytes(after, env.packageId) * STORAGE_PRICE;
    const before = env.store.get(id);
    if (before !== undefined) {
      const { rebate, kept } = rebateOf(before.storageRebate);
      storageRebate += rebate;
      nonRefundableStorageFee += kept;
    }
  }
  return { storageCost, storageRebate, nonRefundableStorageFee };
}

export function executeTransaction(tx: AdmittedTransaction, env: ExecutionEnvironment): ExecutedTransaction {
  const computationCost = computationUnits(tx.commands, tx.bytes.length) * tx.gasPrice;
  let execution = prepare(tx, env);
  let failure: string | undefined;
  try {
    runProgrammable({
      execution,
      inputs: tx.inputs,
      commands: tx.commands,
      gasCoinId: tx.gasPayment[0]!.id,
      modules: env.modules,
    });
  } catch (error) {
    if (!(error instanceof ExecutionFailure)) throw error;
    failure = error.kind;
    execution = prepare(tx, env);
  }
  const written = (): Set<string> => new Set([...execution.writes.keys(), ...alwaysWritten(tx)]);
  let gas: GasSummary = { computationCost, ...storageOf(execution, written(), env) };
  if (gas.computationCost + gas.storageCost > tx.gasBudget) {
    // Out of gas: everything but gas is undone and the whole budget is charged as computation.
    failure = "InsufficientGas";
    execution = prepare(tx, env);
    gas = { computationCost: tx.gasBudget, storageCost: 0n, storageRebate: 0n, nonRefundableStorageFee: 0n };
  }
  const gasCoin = execution.get(tx.gasPayment[0]!.id)!;
  setGasBalance(execution, gasCoin, coinBalance(gasCoin) + tx.gasBudget - netGasCharge(gas));
  return commit(tx, env, execution, written(), gas, failure);
}

function commit(
  tx: AdmittedTransaction,
  env: ExecutionEnvironment,
  execution: Execution,
  written: Set<string>,
  gas: GasSummary,
  failure: string | undefined,
): ExecutedTransaction {
  const { store, packageId } = env;
  const lamport =
    [...written, ...tx.shared.keys()].reduce((max, id) => {
      const version = store.get(id)?.version ?? 0n;
      return version > max ? version : max;
    }, 0n) + 1n;
  // Shared objects as the transaction read them, before its writes.
  const sharedObjects = [...tx.shared.keys()].map((id) => refJson(store.get(id)!));
  const created: SuiObject[] = [];
  const mutated: { before: SuiObject; after: SuiObject }[] = [];
  const deleted: SuiObject[] = [];
  const wrapped: SuiObject[] = [];
  const balances = new Map<string, bigint>();
  const addBalance = (object: SuiObject, sign: bigint) => {
    if (object.contents.kind !== "coin" || object.owner.kind !== "address") return;
    const key = `${object.owner.address} ${object.contents.coinType}`;
    balances.set(key, (balances.get(key) ?? 0n) + sign * object.contents.balance);
  };
  for (const id of written) {
    const before = store.get(id);
    const draft = execution.get(id);
    if (before !== undefined) addBalance(before, -1n);
    if (draft === undefined) {
      if (before === undefined) continue;
      (execution.wrapped.has(id) ? wrapped : deleted).push(before);
      store.delete(id);
      continue;
    }
    const owner =
      draft.owner.kind === "shared" && draft.owner.initialSharedVersion === 0n
        ? { kind: "shared" as const, initialSharedVersion: lamport }
        : draft.owner;
    const after: SuiObject = {
      ...draft,
      owner,
      version: lamport,
      digest: objectDigest(id, lamport, tx.digest),
      previousTransaction: tx.digest,
      storageRebate: 0n,
    };
    after.storageRebate = storageBytes(after, packageId) * STORAGE_PRICE;
    store.set(after);
    addBalance(after, 1n);
    if (before === undefined) created.push(after);
    else mutated.push({ before, after });
  }
  const events = failure === undefined ? execution.events : [];
  const gasObject = store.get(tx.gasPayment[0]!.id)!;
  const objectType = (object: SuiObject) => typeOf(object.contents, packageId);
  const effects: TransactionEffects = {
    messageVersion: "v1",
    status: failure === undefined ? { status: "success" } : { status: "failure", error: failure },
    executedEpoch: "0",
    gasUsed: {
      computationCost: gas.computationCost.toString(),
      storageCost: gas.storageCost.toString(),
      storageRebate: gas.storageRebate.toString(),
      nonRefundableStorageFee: gas.nonRefundableStorageFee.toString(),
    },
    modifiedAtVersions: [...mutated.map((m) => m.before), ...deleted, ...wrapped].map((o) => ({
      objectId: o.id,
      sequenceNumber: o.version.toString(),
    })),
    sharedObjects,
    transactionDigest: tx.digest,
    ...(created.length > 0 ? { created: created.map(ownedRefJson) } : {}),
    mutated: mutated.map((m) => ownedRefJson(m.after)),
    ...(deleted.length > 0
      ? { deleted: deleted.map((o) => refJson({ ...o, version: lamport, digest: DELETED_DIGEST })) }
      : {}),
    ...(wrapped.length > 0
      ? { wrapped: wrapped.map((o) => refJson({ ...o, version: lamport, digest: WRAPPED_DIGEST })) }
      : {}),
    gasObject: ownedRefJson(gasObject),
    dependencies: [],
  };
  const objectChanges: SuiObjectChange[] = [
    ...mutated.map(({ before, after }): SuiObjectChange => ({
      type: "mutated",
      sender: tx.sender,
      owner: ownerJson(after.owner),
      objectType: objectType(after),
      objectId: after.id,
      version: after.version.toString(),
      previousVersion: before.version.toString(),
      digest: after.digest,
    })),
    ...created.map((o): SuiObjectChange => ({
      type: "created",
      sender: tx.sender,
      owner: ownerJson(o.owner),
      objectType: objectType(o),
      objectId: o.id,
      version: o.version.toString(),
      digest: o.digest,
    })),
    ...deleted.map((o): SuiObjectChange => ({
      type: "deleted",
      sender: tx.sender,
      objectType: objectType(o),
      objectId: o.id,
      version: lamport.toString(),
    })),
    ...wrapped.map((o): SuiObjectChange => ({
      type: "wrapped",
      sender: tx.sender,
      objectType: objectType(o),
      objectId: o.id,
      version: lamport.toString(),
    })),
  ];
  const balanceChanges: BalanceChange[] = [...balances].flatMap(([key, amount]) => {
    if (amount === 0n) return [];
    const [owner, coinType] = key.split(" ") as [string, string];
    return [{ owner: { AddressOwner: owner }, coinType: displayType(coinType), amount: amount.toString() }];
  });
  return {
    digest: tx.digest,
    sender: tx.sender,
    ok: failure === undefined,
    effects,
    events,
    objectChanges,
    balanceChanges,
    gas,
    timestampMs: env.timestampMs,
  };
}

/** The digests Sui gives a deleted and a wrapped object's last reference (32 bytes of 99 and of 88). */
const DELETED_DIGEST = toBase58(new Uint8Array(32).fill(99));
const WRAPPED_DIGEST = toBase58(new Uint8Array(32).fill(88));
