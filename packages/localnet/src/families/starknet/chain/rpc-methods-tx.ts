/** Transaction methods: fee estimation, submission, status, receipt and the transaction itself. */
import type { IncludedTransaction, LocalStarknetChain } from "./chain.js";
import { invalidParams, specError, STARKNET_RPC_CODE } from "./errors.js";
import { feltHex } from "./felt.js";
import { invokeJson, parseInvokeV3 } from "./invoke-txn.js";
import type { RpcMethod } from "./rpc-method.js";

function receipt(chain: LocalStarknetChain, record: IncludedTransaction) {
  const reverted = record.revertReason !== undefined;
  return {
    type: "INVOKE",
    transaction_hash: feltHex(record.hash),
    actual_fee: { amount: feltHex(record.fee), unit: "FRI" },
    execution_status: reverted ? "REVERTED" : "SUCCEEDED",
    ...(reverted ? { revert_reason: record.revertReason } : {}),
    finality_status: chain.statusOf(record.blockNumber),
    block_hash: feltHex(record.blockHash),
    block_number: Number(record.blockNumber),
    messages_sent: [],
    events: record.events.map((e) => ({
      from_address: feltHex(e.fromAddress),
      keys: e.keys.map(feltHex),
      data: e.data.map(feltHex),
    })),
    execution_resources: {
      l1_gas: Number(record.usage.l1Gas),
      l1_data_gas: Number(record.usage.l1DataGas),
      l2_gas: Number(record.usage.l2Gas),
    },
  };
}

function hashParam(params: Parameters<RpcMethod>[1]): bigint {
  return params.felt(0, "transaction_hash");
}

export const TX_METHODS: Record<string, RpcMethod> = {
  starknet_estimateFee: (chain, params) => {
    const request = params.required(0, "request");
    if (!Array.isArray(request)) throw invalidParams("request must be an array of transactions");
    const flags = params.optional(1, "simulation_flags") ?? [];
    if (!Array.isArray(flags)) throw invalidParams("simulation_flags must be an array");
    // Estimation runs on the newest state whatever block is named (the local chain executes only there).
    params.blockId(2);
    return chain.estimate(
      request.map((tx) => parseInvokeV3(tx, true)),
      flags.includes("SKIP_VALIDATE"),
    );
  },
  starknet_addInvokeTransaction: (chain, params) => {
    const tx = parseInvokeV3(params.required(0, "invoke_transaction"), false);
    return { transaction_hash: feltHex(chain.submit(tx)) };
  },
  starknet_getTransactionStatus: (chain, params) => {
    const hash = hashParam(params);
    if (chain.waitingTransaction(hash) !== undefined) return { finality_status: "RECEIVED" };
    const record = chain.includedTransaction(hash);
    if (record === undefined) throw specError(STARKNET_RPC_CODE.TXN_HASH_NOT_FOUND);
    const reverted = record.revertReason !== undefined;
    return {
      finality_status: chain.statusOf(record.blockNumber),
      execution_status: reverted ? "REVERTED" : "SUCCEEDED",
      ...(reverted ? { failure_reason: record.revertReason } : {}),
    };
  },
  starknet_getTransactionReceipt: (chain, params) => {
    const record = chain.includedTransaction(hashParam(params));
    if (record === undefined) throw specError(STARKNET_RPC_CODE.TXN_HASH_NOT_FOUND);
    return receipt(chain, record);
  },
  starknet_getTransactionByHash: (chain, params) => {
    const hash = hashParam(params);
    const tx = chain.waitingTransaction(hash) ?? chain.includedTransaction(hash)?.tx;
    if (tx === undefined) throw specError(STARKNET_RPC_CODE.TXN_HASH_NOT_FOUND);
    return invokeJson(tx, hash);
  },
};
