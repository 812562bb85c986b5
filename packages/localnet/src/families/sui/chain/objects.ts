/**
 * Objects of the local Sui chain: id, version, digest, owner, what they hold, the storage rebate they carry
 * and the transaction that last wrote them. The kinds are those the AtomicSwap flows touch: coins, order
 * registries, the order fields under a registry, and the clock.
 */
import { fromBase58, normalizeStructTag, toBase58 } from "@mysten/sui/utils";
import { bytesOfHex, littleEndian, sha256 } from "./bytes.js";

export type Owner =
  | { kind: "address"; address: string }
  | { kind: "object"; parent: string }
  | { kind: "shared"; initialSharedVersion: bigint }
  | { kind: "immutable" }
  /** A value a programmable transaction holds that nothing owns yet (a coin just split off). */
  | { kind: "in-flight" };

export interface OrderState {
  isFulfilled: boolean;
  initiator: string;
  redeemer: string;
  amount: bigint;
  initiatedAt: bigint;
  timelock: bigint;
  /** The ids of the `Order`'s own UID and of its wrapped coin. */
  orderUid: string;
  coinUid: string;
  coinBalance: bigint;
}

export type Contents =
  | { kind: "coin"; coinType: string; balance: bigint }
  | { kind: "registry"; coinType: string }
  | { kind: "order"; coinType: string; orderId: Uint8Array; order: OrderState }
  | { kind: "clock" };

export interface SuiObject {
  id: string;
  version: bigint;
  digest: string;
  owner: Owner;
  contents: Contents;
  /** The storage fee paid when it was last written; 99% of it comes back when it is rewritten or deleted. */
  storageRebate: bigint;
  previousTransaction: string;
}

export const SUI_COIN_TYPE = normalizeStructTag("0x2::sui::SUI");
export const CLOCK_ID = `0x${"0".repeat(63)}6`;

/** Type strings as a full node prints them: framework addresses short (`0x2`), others in full. */
export function displayType(type: string): string {
  return type.replace(/0x0{63}([12])(?=::)/g, "0x$1");
}

export function typeOf(contents: Contents, packageId: string): string {
  switch (contents.kind) {
    case "coin":
      return `0x2::coin::Coin<${displayType(contents.coinType)}>`;
    case "registry":
      return `${packageId}::AtomicSwap::OrdersRegistry<${displayType(contents.coinType)}>`;
    case "order":
      return `0x2::dynamic_field::Field<vector<u8>, ${orderType(contents.coinType, packageId)}>`;
    case "clock":
      return "0x2::clock::Clock";
  }
}

export function orderType(coinType: string, packageId: string): string {
  return `${packageId}::AtomicSwap::Order<${displayType(coinType)}>`;
}

/**
 * Bytes an object is charged storage for (modelled): id, version, owner and type, plus its fields as BCS
 * would lay them out (a coin's UID and u64; an order's name, UIDs, flags, parties, amounts and coin).
 */
export function storageBytes(object: SuiObject, packageId: string): bigint {
  const header = 32 + 8 + 32 + typeOf(object.contents, packageId).length;
  const fields = { coin: 40, registry: 32, order: 33 + 32 + 1 + 64 + 8 + 32 + 40 + 32, clock: 40 };
  return BigInt(header + fields[object.contents.kind]);
}

/**
 * An object's digest (modelled: a real node hashes the object's BCS): base58 of sha256 over its id,
 * version and the transaction that wrote it, so that every write gives a new digest.
 */
export function objectDigest(id: string, version: bigint, writtenBy: string): string {
  return toBase58(
    sha256(
      new TextEncoder().encode("ObjectDigest"),
      bytesOfHex(id),
      littleEndian(version, 8),
      fromBase58(writtenBy),
    ),
  );
}

/**
 * The id of the `count`-th object a transaction creates (modelled on the real derivation, a hash of the
 * transaction digest and a creation counter).
 */
export function freshObjectId(transactionDigestBytes: Uint8Array, count: number): string {
  return `0x${Buffer.from(sha256(Uint8Array.of(0xf1), transactionDigestBytes, littleEndian(BigInt(count), 8))).toString("hex")}`;
}
