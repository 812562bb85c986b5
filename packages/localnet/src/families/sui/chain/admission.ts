/**
 * Admission of a signed transaction, as a Sui validator signs it or refuses it: the BCS must decode as a
 * programmable `TransactionData` V1, the signature must be the sender's over the intent message, the gas
 * price at least the reference price, the budget within bounds and covered by the sender's own SUI
 * payment coins, every owned input the sender's at its current version and digest and not locked by
 * another transaction, every shared input shared at the given initial version, every called package
 * known. Refusals are `-32002` errors naming the cause; nothing is charged.
 */
import { bcs } from "@mysten/sui/bcs";
import { TransactionDataBuilder } from "@mysten/sui/transactions";
import { fromBase64, normalizeSuiAddress } from "@mysten/sui/utils";
import { verifyTransactionSignature } from "@mysten/sui/verify";
import type { AdmittedTransaction, OwnedRef } from "./admitted.js";
import { invalidParams, rejected } from "./errors.js";
import { MAX_GAS_BUDGET, minimumBudget } from "./gas.js";
import type { ObjectStore } from "./object-store.js";
import { CLOCK_ID, SUI_COIN_TYPE, type SuiObject } from "./objects.js";
import type { RunInput } from "./ptb-runner.js";

export interface DecodedTransaction {
  digest: string;
  bytes: Uint8Array;
  data: NonNullable<ReturnType<typeof bcs.TransactionData.parse>["V1"]>;
}

export function decodeTransaction(bytesBase64: string): DecodedTransaction {
  let bytes: Uint8Array;
  let parsed: ReturnType<typeof bcs.TransactionData.parse>;
  try {
    bytes = fromBase64(bytesBase64);
    parsed = bcs.TransactionData.parse(bytes);
  } catch (error) {
    throw invalidParams(
      `tx_bytes is not a BCS TransactionData: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (parsed.V1 === undefined) throw invalidParams("tx_bytes is not a TransactionData V1");
  return { digest: TransactionDataBuilder.getDigestFromBytes(bytes), bytes, data: parsed.V1 };
}

/** The one signature must be the sender's, over the intent message of these bytes. */
export async function verifySender(decoded: DecodedTransaction, signatures: string[]): Promise<void> {
  const sender = normalizeSuiAddress(decoded.data.sender);
  if (signatures.length !== 1)
    throw rejected(
      `Invalid user signature: expected exactly one signature (the sender's), got ${signatures.length}; sponsored transactions are not supported by the local chain`,
    );
  try {
    await verifyTransactionSignature(decoded.bytes, signatures[0]!, { address: sender });
  } catch (error) {
    throw rejected(`Invalid user signature: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export interface AdmissionState {
  store: ObjectStore;
  referenceGasPrice: bigint;
  packages: ReadonlySet<string>;
  /** The transaction holding each locked owned object version (`<id>@<version>`). */
  lockHolder(ref: OwnedRef): string | undefined;
}

function ownedChecked(
  state: AdmissionState,
  ref: { objectId: string; version: string; digest: string },
  sender: string,
): SuiObject {
  const id = normalizeSuiAddress(ref.objectId);
  const version = BigInt(ref.version);
  const object = state.store.get(id);
  if (object === undefined)
    throw rejected(`Could not find the referenced object ${id} at version ${version}`);
  if (object.owner.kind === "shared")
    throw rejected(`Object ${id} is shared and was passed as an owned object (ImmOrOwnedObject)`);
  if (object.version !== version)
    throw rejected(
      `Object ${id} version ${version} is not available for consumption, current version ${object.version}`,
    );
  if (object.digest !== ref.digest)
    throw rejected(
      `Invalid object digest for object ${id}. Expected digest : ${object.digest}, given ${ref.digest}`,
    );
  if (object.owner.kind === "object")
    throw rejected(`Object ${id} is owned by object ${object.owner.parent} and cannot be used as an input`);
  if (object.owner.kind === "address" && object.owner.address !== sender)
    throw rejected(
      `Transaction was not signed by the correct sender: Object ${id} is owned by account address ${object.owner.address}, but given owner/signer address is ${sender}`,
    );
  return object;
}

/** Checks everything but the signature against the current state; throws a `-32002` refusal. */
export function admit(
  state: AdmissionState,
  decoded: DecodedTransaction,
  signatures: string[],
): AdmittedTransaction {
  const { data, digest } = decoded;
  const sender = normalizeSuiAddress(data.sender);
  const programmable = data.kind.ProgrammableTransaction;
  if (programmable === undefined)
    throw rejected(
      `Transaction kind ${data.kind.$kind} is not supported: only programmable transactions are`,
    );
  if (normalizeSuiAddress(data.gasData.owner) !== sender)
    throw rejected(
      "Sponsored transactions are not supported by the local chain: the gas owner must be the sender",
    );
  const price = BigInt(data.gasData.price);
  const budget = BigInt(data.gasData.budget);
  if (price < state.referenceGasPrice)
    throw rejected(`Gas price ${price} under reference gas price (RGP) ${state.referenceGasPrice}`);
  if (budget < minimumBudget(price))
    throw rejected(`Gas budget: ${budget} is lower than min: ${minimumBudget(price)}.`);
  if (budget > MAX_GAS_BUDGET) throw rejected(`Gas budget: ${budget} is higher than max: ${MAX_GAS_BUDGET}.`);
  if (data.gasData.payment.length === 0) throw rejected("Missing gas payment");

  const seen = new Set<string>();
  const once = (id: string) => {
    if (seen.has(id)) throw rejected(`Mutable object ${id} cannot appear more than once in one transaction`);
    seen.add(id);
  };
  let gasBalance = 0n;
  const gasPayment = data.gasData.payment.map((ref) => {
    const coin = ownedChecked(state, ref, sender);
    once(coin.id);
    if (coin.contents.kind !== "coin" || coin.contents.coinType !== SUI_COIN_TYPE)
      throw rejected(`Gas object ${coin.id} is not a coin of 0x2::sui::SUI`);
    gasBalance += coin.contents.balance;
    return { id: coin.id, version: coin.version };
  });
  if (gasBalance < budget)
    throw rejected(`Balance of gas object ${gasBalance} is lower than the needed amount: ${budget}`);

  const owned: OwnedRef[] = [...gasPayment];
  const shared = new Map<string, boolean>();
  const inputs: RunInput[] = programmable.inputs.map((input): RunInput => {
    if (input.Pure !== undefined) return { kind: "pure", bytes: fromBase64(input.Pure.bytes) };
    const arg = input.Object!;
    if (arg.ImmOrOwnedObject !== undefined) {
      const object = ownedChecked(state, arg.ImmOrOwnedObject, sender);
      once(object.id);
      owned.push({ id: object.id, version: object.version });
      const immutable = object.owner.kind === "immutable";
      return { kind: "object", id: object.id, mutable: !immutable, byValue: !immutable };
    }
    if (arg.SharedObject !== undefined) {
      const id = normalizeSuiAddress(arg.SharedObject.objectId);
      const object = state.store.get(id);
      if (object === undefined) throw rejected(`Could not find the referenced object ${id}`);
      if (object.owner.kind !== "shared")
        throw rejected(`Object ${id} is not shared and was passed as a shared object`);
      const given = BigInt(arg.SharedObject.initialSharedVersion);
      if (given !== object.owner.initialSharedVersion)
        throw rejected(
          `Shared object ${id} initial shared version ${given} does not match its initial shared version ${object.owner.initialSharedVersion}`,
        );
      if (id === CLOCK_ID && arg.SharedObject.mutable)
        throw rejected(`The clock ${CLOCK_ID} can only be passed as an immutable shared object`);
      shared.set(id, (shared.get(id) ?? false) || arg.SharedObject.mutable);
      return { kind: "object", id, mutable: arg.SharedObject.mutable, byValue: false };
    }
    throw rejected("Receiving objects are not supported by the local chain");
  });
  for (const command of programmable.commands) {
    if (command.MoveCall !== undefined && !state.packages.has(normalizeSuiAddress(command.MoveCall.package)))
      throw rejected(
        `Package object does not exist with ID ${normalizeSuiAddress(command.MoveCall.package)}`,
      );
  }
  for (const ref of owned) {
    const holder = state.lockHolder(ref);
    if (holder !== undefined && holder !== digest)
      throw rejected(`Object ${ref.id} is locked by transaction ${holder}`);
  }
  return {
    digest,
    bytes: decoded.bytes,
    signatures,
    sender,
    inputs,
    commands: programmable.commands,
    gasPayment,
    gasPrice: price,
    gasBudget: budget,
    ownedRefs: owned,
    shared,
  };
}
