/**
 * Which actions of a mined batch took effect. A call that fails inside a batch undoes only itself, so the
 * receipt's status says nothing about each action; the HTLC's own event does: `Initiated`, `Redeemed` or
 * `Refunded` with the action's order id, emitted by the action's HTLC, exactly when its call succeeded.
 */
import { getAbiItem, isAddressEqual, toEventSelector, type Address, type Hex, type Log } from "viem";
import type { ActionKind } from "../../chain.js";
import { with0x } from "../client.js";
import { htlcAbi } from "../htlc-abi.js";

const EFFECT_TOPIC: Record<ActionKind, Hex | null> = {
  fill: toEventSelector(getAbiItem({ abi: htlcAbi, name: "Initiated" })),
  redeem: toEventSelector(getAbiItem({ abi: htlcAbi, name: "Redeemed" })),
  refund: toEventSelector(getAbiItem({ abi: htlcAbi, name: "Refunded" })),
  // Never batched on EVM (the solver declines EVM sources by not filling them).
  instant_refund: null,
};

/** topic0 of the event that shows an action of `kind` took effect. */
export function effectTopic(kind: ActionKind): Hex | null {
  return EFFECT_TOPIC[kind];
}

export interface BatchedAction {
  kind: ActionKind;
  htlc: Address;
  /** The order id, hex with or without 0x. */
  swapId: string;
}

/** Whether the receipt's logs show this action's effect: its HTLC's event for its order id. */
export function tookEffect(action: BatchedAction, logs: readonly Pick<Log, "address" | "topics">[]): boolean {
  const topic = effectTopic(action.kind);
  if (topic === null) return false;
  const orderId = with0x(action.swapId).toLowerCase();
  return logs.some(
    (log) =>
      isAddressEqual(log.address, action.htlc) &&
      log.topics[0] === topic &&
      log.topics[1]?.toLowerCase() === orderId,
  );
}
