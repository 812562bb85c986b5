/**
 * JSON-RPC answers built from the chain's records, in the shapes of the SDK's generated types:
 * `SuiTransactionBlockResponse` (with the options asked for), `SuiEvent`, `SuiObjectResponse`.
 */
import type {
  SuiEvent,
  SuiObjectResponse,
  SuiTransactionBlockResponse,
  SuiTransactionBlockResponseOptions,
} from "@mysten/sui/client";
import { toBase58, toBase64 } from "@mysten/sui/utils";
import type { LocalSuiChain, StoredEvent, TransactionRecord } from "./chain.js";
import { bytesOfHex, sha256 } from "./bytes.js";
import { CLOCK_ID, displayType, objectDigest, typeOf, type SuiObject } from "./objects.js";
import { ownerJson } from "./owner-json.js";

export function eventJson(stored: StoredEvent): SuiEvent {
  const { event } = stored;
  return {
    id: { txDigest: stored.txDigest, eventSeq: String(stored.eventSeq) },
    packageId: event.packageId,
    transactionModule: event.module,
    sender: stored.sender,
    type: event.type,
    parsedJson: event.parsedJson,
    bcs: toBase64(event.bcs),
    bcsEncoding: "base64",
    timestampMs: stored.timestampMs.toString(),
  };
}

/** The transaction as sent: sender, gas data, and its inputs and commands as decoded from its BCS. */
function transactionJson(record: TransactionRecord): NonNullable<SuiTransactionBlockResponse["transaction"]> {
  const { data } = record.decoded;
  const programmable = data.kind.ProgrammableTransaction!;
  return {
    data: {
      messageVersion: "v1",
      sender: record.sender,
      gasData: {
        owner: data.gasData.owner,
        price: String(data.gasData.price),
        budget: String(data.gasData.budget),
        payment: data.gasData.payment.map((ref) => ({
          objectId: ref.objectId,
          version: String(ref.version),
          digest: ref.digest,
        })),
      },
      transaction: {
        kind: "ProgrammableTransaction",
        inputs: programmable.inputs.map((input) => {
          if (input.Pure !== undefined) return { type: "pure", value: input.Pure.bytes, valueType: null };
          const object = input.Object!;
          if (object.SharedObject !== undefined)
            return {
              type: "object",
              objectType: "sharedObject",
              objectId: object.SharedObject.objectId,
              initialSharedVersion: String(object.SharedObject.initialSharedVersion),
              mutable: object.SharedObject.mutable,
            };
          const ref = object.ImmOrOwnedObject ?? object.Receiving!;
          return {
            type: "object",
            objectType: "immOrOwnedObject",
            objectId: ref.objectId,
            version: String(ref.version),
            digest: ref.digest,
          };
        }),
        // Commands as their BCS decodes (`{MoveCall: {...}}`, `{SplitCoins: {...}}`), without the `$kind` tag.
        transactions: programmable.commands.map((command) => {
          const { $kind, ...rest } = command;
          void $kind;
          return rest as never;
        }),
      },
    },
    txSignatures: record.signatures,
  };
}

export function transactionResponse(
  chain: LocalSuiChain,
  record: TransactionRecord,
  options: SuiTransactionBlockResponseOptions,
): SuiTransactionBlockResponse {
  const events = chain.events.filter((e) => e.txDigest === record.digest);
  return {
    digest: record.digest,
    ...(options.showInput === true ? { transaction: transactionJson(record) } : {}),
    ...(options.showRawInput === true ? { rawTransaction: toBase64(record.bytes) } : {}),
    ...(options.showEffects === true ? { effects: record.effects } : {}),
    ...(options.showEvents === true ? { events: events.map(eventJson) } : {}),
    ...(options.showObjectChanges === true ? { objectChanges: record.objectChanges } : {}),
    ...(options.showBalanceChanges === true ? { balanceChanges: record.balanceChanges } : {}),
    timestampMs: record.timestampMs.toString(),
    ...(record.checkpoint !== undefined ? { checkpoint: record.checkpoint.toString() } : {}),
  };
}

/** The Move fields of an object, as `content.fields` shows them (numbers above 2^53 as strings). */
function fieldsOf(object: SuiObject, chain: LocalSuiChain): Record<string, unknown> {
  const { contents } = object;
  const uid = (id: string) => ({ id });
  switch (contents.kind) {
    case "coin":
      return { id: uid(object.id), balance: contents.balance.toString() };
    case "registry":
      return { id: uid(object.id) };
    case "clock":
      return { id: uid(CLOCK_ID), timestamp_ms: chain.clockMs().toString() };
    case "order": {
      const { order } = contents;
      return {
        id: uid(object.id),
        name: Array.from(contents.orderId),
        value: {
          type: `${chain.packageId}::AtomicSwap::Order<${displayType(contents.coinType)}>`,
          fields: {
            id: uid(order.orderUid),
            is_fulfilled: order.isFulfilled,
            initiator: order.initiator,
            redeemer: order.redeemer,
            amount: order.amount.toString(),
            initiated_at: order.initiatedAt.toString(),
            timelock: order.timelock.toString(),
            coins: {
              type: `0x2::coin::Coin<${displayType(contents.coinType)}>`,
              fields: { id: uid(order.coinUid), balance: order.coinBalance.toString() },
            },
          },
        },
      };
    }
  }
}

export interface ObjectOptions {
  showType?: boolean;
  showOwner?: boolean;
  showContent?: boolean;
  showPreviousTransaction?: boolean;
  showStorageRebate?: boolean;
}

export function objectResponse(
  chain: LocalSuiChain,
  object: SuiObject,
  options: ObjectOptions,
): SuiObjectResponse {
  const type = typeOf(object.contents, chain.packageId);
  return {
    data: {
      objectId: object.id,
      version: object.version.toString(),
      digest: object.digest,
      ...(options.showType === true ? { type } : {}),
      ...(options.showOwner === true ? { owner: ownerJson(object.owner) } : {}),
      ...(options.showPreviousTransaction === true
        ? { previousTransaction: object.previousTransaction }
        : {}),
      ...(options.showStorageRebate === true ? { storageRebate: object.storageRebate.toString() } : {}),
      ...(options.showContent === true
        ? {
            content: {
              dataType: "moveObject" as const,
              type,
              hasPublicTransfer: object.contents.kind === "coin",
              fields: fieldsOf(object, chain) as never,
            },
          }
        : {}),
    },
  };
}

/**
 * A package the chain has at genesis (the AtomicSwap module and the look-alike), as a node answers for a
 * published package: an immutable object of type `package` at version 1. Clients tell a network by it
 * (`config check --online` asks for the configured package).
 */
export function packageResponse(id: string, options: ObjectOptions): SuiObjectResponse {
  const publishedBy = toBase58(sha256(new TextEncoder().encode("local package publish"), bytesOfHex(id)));
  return {
    data: {
      objectId: id,
      version: "1",
      digest: objectDigest(id, 1n, publishedBy),
      ...(options.showType === true ? { type: "package" } : {}),
      ...(options.showOwner === true ? { owner: "Immutable" as const } : {}),
      ...(options.showPreviousTransaction === true ? { previousTransaction: publishedBy } : {}),
      ...(options.showStorageRebate === true ? { storageRebate: "0" } : {}),
    },
  };
}
