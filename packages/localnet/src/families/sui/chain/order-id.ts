/**
 * The AtomicSwap module's order id (`create_order_id` of `atomic_swapv1::AtomicSwap`): sha256 of a 32-byte
 * zero chain id, the secret hash, initiator, redeemer, the timelock as u256 and the amount as u64 (both BCS,
 * little-endian) and the registry's object id.
 */
import { bytesOfHex, littleEndian, sha256 } from "./bytes.js";

export interface OrderTerms {
  secretHash: Uint8Array;
  initiator: string;
  redeemer: string;
  timelock: bigint;
  amount: bigint;
  registry: string;
}

const CHAIN_ID = new Uint8Array(32);

export function orderIdOf(terms: OrderTerms): Uint8Array {
  return sha256(
    CHAIN_ID,
    terms.secretHash,
    bytesOfHex(terms.initiator),
    bytesOfHex(terms.redeemer),
    littleEndian(terms.timelock, 32),
    littleEndian(terms.amount, 8),
    bytesOfHex(terms.registry),
  );
}
