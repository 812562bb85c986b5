/**
 * One transaction for many actions of one kind: redeems and refunds as calls of the standard Multicall3
 * contract (anyone may redeem or refund; the HTLC pays the order's own redeemer or initiator), fills as
 * calls the solver's account makes itself through its EIP-7702 delegation to the BatchExecutor (the HTLC
 * must see the account as initiator and funder). Every call may fail alone.
 */
import type { Address, Hex } from "viem";
import type { ActionKind } from "../../chain.js";
import type { EvmCall } from "../htlc-calls.js";
import { decodeExecute, executeData } from "./batch-executor-abi.js";
import { aggregate3Data, decodeAggregate3, MULTICALL3_ADDRESS, type CallResult } from "./multicall3.js";

export class UnbatchableActionError extends Error {
  constructor(kind: ActionKind, chain: string) {
    super(
      `${kind} actions on ${chain} cannot share a transaction` +
        (kind === "fill" ? ': fills batch only with batchFills "eip7702" and the account delegated' : ""),
    );
    this.name = "UnbatchableActionError";
  }
}

export interface BatchRoute {
  /** Fills: the solver's own (delegated) account. Redeems and refunds: Multicall3. */
  to: Address;
  /** Calldata running `calls`, each allowed to fail alone, or (for a gas estimate) each required to succeed. */
  data(calls: readonly EvmCall[], allowFailure: boolean): Hex;
  decode(result: Hex): CallResult[];
}

/** How a batch of `kind` is sent from `account`. Values of fills come from the account's own balance. */
export function batchRoute(kind: ActionKind, account: Address, chain: string): BatchRoute {
  switch (kind) {
    case "fill":
      return {
        to: account,
        data: (calls, allowFailure) =>
          executeData(
            calls.map((c) => ({ target: c.to, value: c.value, data: c.data })),
            allowFailure,
          ),
        decode: decodeExecute,
      };
    case "redeem":
    case "refund":
      return {
        to: MULTICALL3_ADDRESS,
        data: (calls, allowFailure) => {
          // Multicall3's aggregate3 forwards no value; redeems and refunds carry none.
          if (calls.some((c) => c.value !== 0n)) throw new UnbatchableActionError(kind, chain);
          return aggregate3Data(
            calls.map((c) => ({ target: c.to, data: c.data })),
            allowFailure,
          );
        },
        decode: decodeAggregate3,
      };
    case "instant_refund":
      throw new UnbatchableActionError(kind, chain);
  }
}
