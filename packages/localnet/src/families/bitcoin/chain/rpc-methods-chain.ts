import type { BlockEntry } from "./chain.js";
import { RPC_CODE, RpcMethodError } from "./errors.js";
import type { BitcoinRegtestNode } from "./node.js";
import { REGTEST } from "./params.js";
import type { RpcMethod } from "./rpc-method.js";
import type { RpcParams } from "./rpc-params.js";
import { blockHeaderJson, blockJson, chainwork, difficulty, NETWORK_INFO, txOutJson } from "./rpc-views.js";

function blockByHash(node: BitcoinRegtestNode, hash: string): BlockEntry {
  const entry = node.chain.byHash.get(hash);
  if (entry === undefined) throw new RpcMethodError(RPC_CODE.INVALID_ADDRESS_OR_KEY, "Block not found");
  return entry;
}

function verbosity(params: RpcParams, index: number, fallback: number): number {
  const value = params.get(index);
  if (value === undefined || value === null) return fallback;
  if (typeof value === "boolean") return value ? 1 : 0;
  return params.int(index);
}

export const CHAIN_METHODS: Record<string, RpcMethod> = {
  getblockchaininfo: {
    params: [],
    run: (node) => ({
      chain: REGTEST.chain,
      blocks: node.chain.height,
      headers: node.chain.height,
      bestblockhash: node.chain.tip.hash,
      difficulty: difficulty(REGTEST.bits),
      time: node.chain.tip.time,
      mediantime: node.chain.tip.medianTimePast,
      verificationprogress: 1,
      initialblockdownload: node.inInitialBlockDownload(),
      chainwork: chainwork(node.chain.height),
      size_on_disk: 0,
      pruned: false,
      warnings: "",
    }),
  },
  getblockcount: { params: [], run: (node) => node.chain.height },
  getbestblockhash: { params: [], run: (node) => node.chain.tip.hash },
  getblockhash: {
    params: ["height"],
    run: (node, p) => {
      const entry = node.chain.atHeight(p.int(0));
      if (entry === undefined)
        throw new RpcMethodError(RPC_CODE.INVALID_PARAMETER, "Block height out of range");
      return entry.hash;
    },
  },
  getblock: {
    params: ["blockhash", "verbosity"],
    run: (node, p) => {
      const entry = blockByHash(node, p.hash(0));
      const level = verbosity(p, 1, 1);
      if (level <= 0) return entry.block.toHex();
      return blockJson(node.chain, entry, level === 1 ? 1 : 2);
    },
  },
  getblockheader: {
    params: ["blockhash", "verbose"],
    run: (node, p) => {
      const entry = blockByHash(node, p.hash(0));
      return p.bool(1, true) ? blockHeaderJson(node.chain, entry) : entry.block.toHex(true);
    },
  },
  gettxout: {
    params: ["txid", "n", "include_mempool"],
    run: (node, p) => {
      const found = node.getTxOut(p.hash(0), p.int(1), p.bool(2, true));
      return found === null ? null : txOutJson(node.chain, found.coin, found.confirmations);
    },
  },
  invalidateblock: {
    params: ["blockhash"],
    run: (node, p) => {
      node.invalidateBlock(p.hash(0));
      return null;
    },
  },
  reconsiderblock: {
    params: ["blockhash"],
    run: (node, p) => {
      node.reconsiderBlock(p.hash(0));
      return null;
    },
  },
  getnetworkinfo: { params: [], run: () => NETWORK_INFO },
  getindexinfo: {
    params: ["index_name"],
    run: (node) => ({ txindex: { synced: true, best_block_height: node.chain.height } }),
  },
  uptime: { params: [], run: (node) => Math.floor((Date.now() - node.startedAtMs) / 1000) },
  setmocktime: {
    params: ["timestamp"],
    run: (node, p) => {
      const time = p.int(0);
      if (time < 0)
        throw new RpcMethodError(RPC_CODE.INVALID_PARAMETER, "Mocktime cannot be negative: " + time);
      node.mockTime = time === 0 ? null : time;
      return null;
    },
  },
};
