/**
 * Starknet order ids, as the HTLC contract computes them (docs/protocol.md, Starknet): a Poseidon hash of
 * the chain id, the parties, the terms and the secret hash's eight u32 words, in the order the contract
 * version of the chain (`orderIdLayout`) takes them. The service prints the id as hex without `0x` and
 * without leading zeros; the solver keeps exactly that form, and takes a stated id only in it.
 */
import { hash, shortString } from "starknet";
import { FELT_PRIME, parseFelt, secretHashWords, u256Felts } from "./felt.js";

export const ORDER_ID_LAYOUTS = ["deployed", "audited"] as const;
export type OrderIdLayout = (typeof ORDER_ID_LAYOUTS)[number];

export interface OrderIdFields {
  layout: OrderIdLayout;
  /** The chain id short string (`SN_SEPOLIA`, `SN_MAIN`). */
  chainId: string;
  initiator: string;
  redeemer: string;
  timelock: bigint;
  amount: bigint;
  /** sha256 of the secret, 32 bytes hex. */
  secretHash: string;
  /** The HTLC contract: the audited layout hashes it in. */
  htlc: string;
}

/** The felt of a chain id short string (`SN_SEPOLIA` = 0x534e5f5345504f4c4941). */
export function chainIdFelt(chainId: string): bigint {
  return BigInt(shortString.encodeShortString(chainId));
}

/** The order id as a felt. */
export function orderIdFelt(fields: OrderIdFields): bigint {
  const [low, high] = u256Felts(fields.amount);
  const words = secretHashWords(fields.secretHash);
  const chain = chainIdFelt(fields.chainId);
  const initiator = parseFelt(fields.initiator, "initiator");
  const redeemer = parseFelt(fields.redeemer, "redeemer");
  const elements =
    fields.layout === "deployed"
      ? [chain, initiator, redeemer, fields.timelock, low, high, ...words]
      : [chain, ...words, initiator, redeemer, fields.timelock, low, high, parseFelt(fields.htlc, "HTLC")];
  return BigInt(hash.computePoseidonHashOnElements(elements));
}

/** The swap id as the service prints it: hex, no `0x`, no leading zeros. */
export function swapIdText(orderId: bigint): string {
  return orderId.toString(16);
}

/** The order id as the service prints it. */
export function computeStarknetSwapId(fields: OrderIdFields): string {
  return swapIdText(orderIdFelt(fields));
}

const SWAP_ID = /^[1-9a-f][0-9a-f]{0,63}$/;

/**
 * A swap id the service stated, as the felt it names, when it is in the one form the service prints;
 * a problem otherwise. Any other spelling (a `0x`, upper case, leading zeros, a value past the prime that
 * a node would reduce to another id) is refused rather than read as some order it may not be.
 */
export function readStatedSwapId(stated: string): { orderId: bigint } | { problem: string } {
  if (!SWAP_ID.test(stated))
    return {
      problem: `swap id ${JSON.stringify(stated)} is not lower-case hex without 0x and without leading zeros`,
    };
  const orderId = BigInt(`0x${stated}`);
  if (orderId >= FELT_PRIME) return { problem: `swap id ${stated} is not below the Stark field's prime` };
  return { orderId };
}
