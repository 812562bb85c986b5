/**
 * The HTLC's SNIP-12 (revision 1) messages: `Initiate`, which an initiator signs for
 * `initiate_with_signature`, and `instantRefund`, which the redeemer signs to give a lock back at once
 * (docs/protocol.md, Starknet). The deployed contract's messages carry no contract address; the audited
 * one's add `verifyingContract`.
 */
import { typedData as snip12, type TypedData } from "starknet";
import { feltHex, parseFelt, secretHashWords, u256Felts } from "./felt.js";
import type { OrderIdLayout } from "./order-id.js";

const DOMAIN_TYPE = [
  { name: "name", type: "shortstring" },
  { name: "version", type: "shortstring" },
  { name: "chainId", type: "shortstring" },
  { name: "revision", type: "shortstring" },
];

function domain(chainId: string) {
  return { name: "HTLC", version: "1", chainId, revision: "1" };
}

export interface InitiateMessage {
  layout: OrderIdLayout;
  chainId: string;
  redeemer: string;
  amount: bigint;
  timelock: bigint;
  secretHash: string;
  htlc: string;
}

/** The `Initiate` typed data, shaped as the service's published order gives it. */
export function initiateTypedData(message: InitiateMessage): TypedData {
  const [low, high] = u256Felts(message.amount);
  const audited = message.layout === "audited";
  return {
    domain: domain(message.chainId),
    primaryType: "Initiate",
    types: {
      StarknetDomain: DOMAIN_TYPE,
      Initiate: [
        { name: "redeemer", type: "ContractAddress" },
        { name: "amount", type: "u256" },
        { name: "timelock", type: "u128" },
        { name: "secretHash", type: "u128*" },
        ...(audited ? [{ name: "verifyingContract", type: "ContractAddress" }] : []),
      ],
    },
    message: {
      redeemer: parseFelt(message.redeemer, "redeemer").toString(),
      amount: { low: feltHex(low), high: feltHex(high) },
      timelock: message.timelock.toString(),
      secretHash: secretHashWords(message.secretHash).map(Number),
      ...(audited ? { verifyingContract: feltHex(parseFelt(message.htlc, "HTLC")) } : {}),
    },
  };
}

/** The `instantRefund` typed data of an order on an HTLC. */
export function instantRefundTypedData(
  layout: OrderIdLayout,
  chainId: string,
  orderId: bigint,
  htlc: string,
): TypedData {
  const audited = layout === "audited";
  return {
    domain: domain(chainId),
    primaryType: "instantRefund",
    types: {
      StarknetDomain: DOMAIN_TYPE,
      instantRefund: [
        { name: "orderID", type: "felt" },
        ...(audited ? [{ name: "verifyingContract", type: "ContractAddress" }] : []),
      ],
    },
    message: {
      orderID: feltHex(orderId),
      ...(audited ? { verifyingContract: feltHex(parseFelt(htlc, "HTLC")) } : {}),
    },
  };
}

/** The hash the signer's account checks with `is_valid_signature`. */
export function messageHash(data: TypedData, signer: string): bigint {
  return BigInt(snip12.getMessageHash(data, feltHex(parseFelt(signer, "signer"))));
}
