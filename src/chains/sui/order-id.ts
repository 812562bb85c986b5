/**
 * Sui order ids, as `AtomicSwap::initiate` computes them (docs/protocol.md, Sui): sha256 of 32 zero
 * bytes, the secret hash, initiator, redeemer, the timelock as a u256 and the amount as a u64 (both
 * little-endian), and the registry's object id. The service prints the id as 64 lower-case hex digits
 * without `0x`; a stated id is taken only in exactly that form.
 */
import { createHash } from "node:crypto";
import { bcs } from "@mysten/sui/bcs";
import { hex32Bytes, suiAddress } from "./address.js";

export interface SuiOrderIdFields {
  initiator: string;
  redeemer: string;
  /** sha256 of the secret, 32 bytes hex without `0x`. */
  secretHash: string;
  /** Milliseconds. */
  timelock: bigint;
  amount: bigint;
  /** The `OrdersRegistry<CoinType>` shared object the order lives in. */
  registry: string;
}

/** The order id's 32 bytes. */
export function suiOrderIdBytes(fields: SuiOrderIdFields): Uint8Array {
  return createHash("sha256")
    .update(new Uint8Array(32))
    .update(hex32Bytes(fields.secretHash, "secret hash"))
    .update(bcs.Address.serialize(suiAddress(fields.initiator, "initiator")).toBytes())
    .update(bcs.Address.serialize(suiAddress(fields.redeemer, "redeemer")).toBytes())
    .update(bcs.u256().serialize(fields.timelock).toBytes())
    .update(bcs.u64().serialize(fields.amount).toBytes())
    .update(bcs.Address.serialize(suiAddress(fields.registry, "registry")).toBytes())
    .digest();
}

/** The order id as the service prints it. */
export function computeSuiSwapId(fields: SuiOrderIdFields): string {
  return Buffer.from(suiOrderIdBytes(fields)).toString("hex");
}

const SWAP_ID = /^[0-9a-f]{64}$/;

/**
 * The 32 bytes a stated swap id names, when it is in the one form the service prints; a problem
 * otherwise. Another spelling (upper case, `0x`, fewer digits) is refused rather than read as an order it
 * may not be: a service that lies about ids gets no benefit of the doubt.
 */
export function readStatedSuiSwapId(stated: string): { orderId: Uint8Array } | { problem: string } {
  if (!SWAP_ID.test(stated))
    return { problem: `swap id ${JSON.stringify(stated)} is not 64 lower-case hex digits without 0x` };
  return { orderId: Uint8Array.from(Buffer.from(stated, "hex")) };
}
