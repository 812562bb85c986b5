/** Chain-level methods: spec version, chain id, block number and blocks, nonces, calls and events. */
import { feltHex } from "./felt.js";
import { invalidParams } from "./errors.js";
import type { LocalStarknetChain } from "./chain.js";
import type { Block } from "./blocks.js";
import type { GasPrices } from "./fees.js";
import { parseBlockId, parseFelt, parseFeltList } from "./rpc-params.js";
import type { RpcMethod } from "./rpc-method.js";

export const SPEC_VERSION = "0.9.0";
/** The Starknet version the local chain's blocks report. */
const STARKNET_VERSION = "0.14.0";

function prices(p: GasPrices) {
  return {
    l1_gas_price: { price_in_fri: feltHex(p.l1), price_in_wei: feltHex(p.l1 / 1000n) },
    l2_gas_price: { price_in_fri: feltHex(p.l2), price_in_wei: feltHex(p.l2 / 1000n) },
    l1_data_gas_price: { price_in_fri: feltHex(p.l1Data), price_in_wei: feltHex(p.l1Data / 1000n) },
  };
}

function closedBlock(chain: LocalStarknetChain, block: Block) {
  return {
    status: chain.statusOf(block.number),
    block_hash: feltHex(block.hash),
    parent_hash: feltHex(block.parentHash),
    block_number: Number(block.number),
    new_root: feltHex(block.hash),
    timestamp: block.timestamp,
    sequencer_address: feltHex(chain.options.sequencer),
    ...prices(block.prices),
    l1_da_mode: "BLOB",
    starknet_version: STARKNET_VERSION,
    transactions: block.transactionHashes.map(feltHex),
  };
}

function preConfirmedBlock(chain: LocalStarknetChain) {
  const latest = chain.latest();
  return {
    block_number: Number(latest.number + 1n),
    timestamp: Math.max(Math.floor(Date.now() / 1000), latest.timestamp),
    sequencer_address: feltHex(chain.options.sequencer),
    ...prices(chain.gasPrices),
    l1_da_mode: "BLOB",
    starknet_version: STARKNET_VERSION,
    transactions: [],
  };
}

function eventsBlockBound(chain: LocalStarknetChain, value: unknown, what: string, fallback: bigint): bigint {
  if (value === undefined) return fallback;
  const id = parseBlockId(value, what);
  if (id === "pre_confirmed") return chain.latest().number + 1n;
  const block = chain.resolveBlock(id);
  return block?.number ?? fallback;
}

export const CHAIN_METHODS: Record<string, RpcMethod> = {
  starknet_specVersion: () => SPEC_VERSION,
  starknet_chainId: (chain) => feltHex(chain.chainId),
  starknet_blockNumber: (chain) => Number(chain.latest().number),
  starknet_blockHashAndNumber: (chain) => {
    const latest = chain.latest();
    return { block_hash: feltHex(latest.hash), block_number: Number(latest.number) };
  },
  starknet_getBlockWithTxHashes: (chain, params) => {
    const block = chain.resolveBlock(params.blockId(0));
    return block === undefined ? preConfirmedBlock(chain) : closedBlock(chain, block);
  },
  starknet_getNonce: (chain, params) =>
    feltHex(chain.nonceAt(params.blockId(0), params.felt(1, "contract_address"))),
  starknet_call: (chain, params) => {
    const request = params.required(0, "request");
    if (typeof request !== "object" || request === null) throw invalidParams("request must be an object");
    const r = request as Record<string, unknown>;
    const result = chain.call(
      params.blockId(1),
      parseFelt(r.contract_address, "request.contract_address"),
      parseFelt(r.entry_point_selector, "request.entry_point_selector"),
      parseFeltList(r.calldata ?? [], "request.calldata"),
    );
    return result.map(feltHex);
  },
  starknet_getEvents: (chain, params) => {
    const filter = params.required(0, "filter");
    if (typeof filter !== "object" || filter === null) throw invalidParams("filter must be an object");
    const f = filter as Record<string, unknown>;
    if (typeof f.chunk_size !== "number" || !Number.isSafeInteger(f.chunk_size))
      throw invalidParams("filter.chunk_size must be an integer");
    if (f.continuation_token !== undefined && typeof f.continuation_token !== "string")
      throw invalidParams("filter.continuation_token must be a string");
    const keys = f.keys ?? [];
    if (!Array.isArray(keys)) throw invalidParams("filter.keys must be a list of lists of felts");
    const latest = chain.latest().number;
    return chain.events.page({
      fromBlock: eventsBlockBound(chain, f.from_block, "filter.from_block", 0n),
      toBlock: eventsBlockBound(chain, f.to_block, "filter.to_block", latest),
      address: f.address === undefined ? undefined : parseFelt(f.address, "filter.address"),
      keys: keys.map((alternatives, i) => parseFeltList(alternatives, `filter.keys[${i}]`)),
      chunkSize: f.chunk_size,
      continuationToken: f.continuation_token,
    });
  },
};
