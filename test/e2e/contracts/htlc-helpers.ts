/** Reading orders and events, and signing the v3 EIP-712 messages, shared by the HTLC contract tests. */
import type { EvmStoredOrder } from "../../../src/chains/evm/reader.js";
import { isAddressEqual, parseEventLogs, type Address, type Hex, type TransactionReceipt } from "viem";
import { expect } from "vitest";
import {
  HTLC_EIP712_NAME,
  HTLC_EIP712_VERSION,
  htlcAbi,
  htlcTypedDataTypes,
} from "../../../src/chains/evm/htlc-abi.js";
import { evmOrderId } from "../../../src/chains/evm/order-id.js";
import type { Actor, ChainFixture } from "./fixture.js";

export interface OrderTerms {
  initiator: Address;
  redeemer: Address;
  timelock: bigint;
  amount: bigint;
  secretHash: Hex;
}

export function orderIdOf(fx: ChainFixture, htlc: Address, terms: OrderTerms): Hex {
  return evmOrderId({ chainId: BigInt(fx.chainId), htlc, ...terms });
}

export async function readOrder(fx: ChainFixture, htlc: Address, orderId: Hex): Promise<EvmStoredOrder> {
  const [initiator, redeemer, initiatedAt, timelock, amount, fulfilledAt] = await fx.pub.readContract({
    address: htlc,
    abi: htlcAbi,
    functionName: "orders",
    args: [orderId],
  });
  return { initiator, redeemer, initiatedAt, timelock, amount, fulfilledAt };
}

/** Asserts the order is stored with `terms`, initiated in `block` and not yet fulfilled. */
export async function expectOpenOrder(
  fx: ChainFixture,
  htlc: Address,
  orderId: Hex,
  terms: OrderTerms,
  block: bigint,
): Promise<void> {
  expect(await readOrder(fx, htlc, orderId)).toEqual({
    initiator: terms.initiator,
    redeemer: terms.redeemer,
    initiatedAt: block,
    timelock: terms.timelock,
    amount: terms.amount,
    fulfilledAt: 0n,
  });
}

export function htlcEvents(receipt: TransactionReceipt, htlc: Address) {
  return parseEventLogs({
    abi: htlcAbi,
    logs: receipt.logs.filter((log) => isAddressEqual(log.address, htlc)),
  });
}

/** The single HTLC event `receipt` emitted, as `{ eventName, args }`. */
export function onlyHtlcEvent(receipt: TransactionReceipt, htlc: Address) {
  const events = htlcEvents(receipt, htlc);
  expect(events).toHaveLength(1);
  const [event] = events;
  if (!event) throw new Error("no HTLC event in the receipt");
  return { eventName: event.eventName, args: event.args };
}

function domain(fx: ChainFixture, htlc: Address) {
  return {
    name: HTLC_EIP712_NAME,
    version: HTLC_EIP712_VERSION,
    chainId: fx.chainId,
    verifyingContract: htlc,
  };
}

/** `signer`'s EIP-712 `Initiate` signature for `terms` on `htlc`. */
export function signInitiate(
  fx: ChainFixture,
  signer: Actor,
  htlc: Address,
  terms: OrderTerms,
): Promise<Hex> {
  return signer.wallet.signTypedData({
    domain: domain(fx, htlc),
    types: htlcTypedDataTypes,
    primaryType: "Initiate",
    message: {
      redeemer: terms.redeemer,
      timelock: terms.timelock,
      amount: terms.amount,
      secretHash: terms.secretHash,
    },
  });
}

/** `signer`'s EIP-712 `Refund` signature of `orderId` on `htlc`. */
export function signRefund(fx: ChainFixture, signer: Actor, htlc: Address, orderId: Hex): Promise<Hex> {
  return signer.wallet.signTypedData({
    domain: domain(fx, htlc),
    types: htlcTypedDataTypes,
    primaryType: "Refund",
    message: { orderId },
  });
}

export async function expectDomain(fx: ChainFixture, htlc: Address): Promise<void> {
  const [fields, name, version, chainId, verifyingContract, salt, extensions] = await fx.pub.readContract({
    address: htlc,
    abi: htlcAbi,
    functionName: "eip712Domain",
  });
  // 0x0f: name, version, chainId and verifyingContract are set; no salt.
  expect({ fields, name, version, chainId, verifyingContract, salt, extensions }).toEqual({
    fields: "0x0f",
    name: "HTLC",
    version: "3",
    chainId: BigInt(fx.chainId),
    verifyingContract: htlc,
    salt: `0x${"00".repeat(32)}`,
    extensions: [],
  });
}
