/**
 * The HTLC's SNIP-12 (revision 1) messages: `Initiate` (signed by the initiator for
 * `initiate_with_signature`) and `instantRefund` (signed by the redeemer). The deployed contract's types
 * are those of its published order's `typed_data`; the audited contract adds `verifyingContract` (the HTLC
 * address) to both. The message hash is starknet.js's `typedData.getMessageHash`, the signer being the
 * account whose `is_valid_signature` is asked.
 */
import { shortString, typedData, type TypedData } from "starknet";
import { feltHex, u256Parts } from "./felt.js";
import type { OrderIdLayout } from "./order-id.js";

const DOMAIN_TYPE = [
  { name: "name", type: "shortstring" },
  { name: "version", type: "shortstring" },
  { name: "chainId", type: "shortstring" },
  { name: "revision", type: "shortstring" },
];

const VERIFYING_CONTRACT = { name: "verifyingContract", type: "ContractAddress" };

function domain(chainId: bigint) {
  return {
    name: "HTLC",
    version: "1",
    chainId: shortString.decodeShortString(feltHex(chainId)),
    revision: "1",
  };
}

export interface InitiateMessage {
  layout: OrderIdLayout;
  chainId: bigint;
  htlc: bigint;
  redeemer: bigint;
  amount: bigint;
  timelock: bigint;
  secretHashWords: readonly bigint[];
}

export function initiateTypedData(m: InitiateMessage): TypedData {
  const { low, high } = u256Parts(m.amount);
  const fields = [
    { name: "redeemer", type: "ContractAddress" },
    { name: "amount", type: "u256" },
    { name: "timelock", type: "u128" },
    { name: "secretHash", type: "u128*" },
  ];
  const message: Record<string, unknown> = {
    redeemer: feltHex(m.redeemer),
    amount: { low: feltHex(low), high: feltHex(high) },
    timelock: m.timelock.toString(),
    secretHash: m.secretHashWords.map((word) => word.toString()),
  };
  if (m.layout === "audited") message.verifyingContract = feltHex(m.htlc);
  return {
    types: {
      StarknetDomain: DOMAIN_TYPE,
      Initiate: m.layout === "audited" ? [...fields, VERIFYING_CONTRACT] : fields,
    },
    primaryType: "Initiate",
    domain: domain(m.chainId),
    message,
  } as TypedData;
}

export interface InstantRefundMessage {
  layout: OrderIdLayout;
  chainId: bigint;
  htlc: bigint;
  orderId: bigint;
}

export function instantRefundTypedData(m: InstantRefundMessage): TypedData {
  const fields = [{ name: "orderID", type: "felt" }];
  const message: Record<string, unknown> = { orderID: feltHex(m.orderId) };
  if (m.layout === "audited") message.verifyingContract = feltHex(m.htlc);
  return {
    types: {
      StarknetDomain: DOMAIN_TYPE,
      instantRefund: m.layout === "audited" ? [...fields, VERIFYING_CONTRACT] : fields,
    },
    primaryType: "instantRefund",
    domain: domain(m.chainId),
    message,
  } as TypedData;
}

export function messageHash(data: TypedData, signer: bigint): bigint {
  return BigInt(typedData.getMessageHash(data, feltHex(signer)));
}
