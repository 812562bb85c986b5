/** Transaction methods: dry run, execution (idempotent for the same signed bytes), lookup by digest. */
import type { SuiTransactionBlockResponseOptions } from "@mysten/sui/client";
import { invalidParams, SUI_RPC_CODE, SuiRpcError } from "./errors.js";
import { eventJson, transactionResponse } from "./response-json.js";
import type { RpcMethod } from "./rpc-method.js";
import type { Params } from "./rpc-params.js";

const REQUEST_TYPES = ["WaitForLocalExecution", "WaitForEffectsCert"];

function options(params: Params, index: number): SuiTransactionBlockResponseOptions {
  return params.object(index, "options") as SuiTransactionBlockResponseOptions;
}

function signatures(params: Params): string[] {
  const value = params.required(1, "signatures");
  if (!Array.isArray(value) || !value.every((s): s is string => typeof s === "string"))
    throw invalidParams("signatures must be an array of base64 serialized signatures");
  return value;
}

export const TX_METHODS: Record<string, RpcMethod> = {
  sui_dryRunTransactionBlock: (chain, params) => {
    const executed = chain.dryRun(params.string(0, "tx_bytes"));
    return {
      effects: executed.effects,
      events: executed.events.map((event, eventSeq) =>
        eventJson({
          txDigest: executed.digest,
          eventSeq,
          sender: executed.sender,
          timestampMs: executed.timestampMs,
          event,
        }),
      ),
      objectChanges: executed.objectChanges,
      balanceChanges: executed.balanceChanges,
      input: { messageVersion: "v1", sender: executed.sender },
    };
  },
  sui_executeTransactionBlock: async (chain, params) => {
    const bytes = params.string(0, "tx_bytes");
    const sigs = signatures(params);
    const shown = options(params, 2);
    const requestType = params.optional(3);
    if (requestType !== undefined && !REQUEST_TYPES.includes(String(requestType)))
      throw invalidParams(
        `request_type must be one of ${REQUEST_TYPES.join(", ")}, got ${JSON.stringify(requestType)}`,
      );
    const record = await chain.submit(bytes, sigs);
    return { ...transactionResponse(chain, record, shown), confirmedLocalExecution: true };
  },
  sui_getTransactionBlock: (chain, params) => {
    const digest = params.string(0, "digest");
    const record = chain.transaction(digest);
    if (record === undefined)
      throw new SuiRpcError(
        SUI_RPC_CODE.INVALID_PARAMS,
        `Could not find the referenced transaction [TransactionDigest(${digest})].`,
      );
    return transactionResponse(chain, record, options(params, 1));
  },
};
