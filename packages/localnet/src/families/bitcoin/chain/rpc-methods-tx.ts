import { Transaction } from "bitcoinjs-lib";
import { wtxidOf } from "./coins.js";
import { descriptorScript, inferDescriptor } from "./descriptor.js";
import { RPC_CODE, RpcMethodError, TxRejectedError } from "./errors.js";
import type { BitcoinRegtestNode } from "./node.js";
import { addressToScript } from "./output-script.js";
import { REGTEST } from "./params.js";
import { BtcAmount, type JsonValue } from "./rpc-json.js";
import type { RpcMethod } from "./rpc-method.js";
import type { RpcParams } from "./rpc-params.js";
import { mempoolEntryJson, txJson } from "./rpc-views.js";

function decodeTx(hex: string): Transaction {
  try {
    if (!/^([0-9a-fA-F]{2})+$/.test(hex)) throw new Error("not hex");
    return Transaction.fromHex(hex);
  } catch {
    throw new RpcMethodError(
      RPC_CODE.DESERIALIZATION_ERROR,
      "TX decode failed. Make sure the tx has at least one input.",
    );
  }
}

function payoutScript(address: string): Uint8Array {
  const script = addressToScript(address);
  if (script === null) throw new RpcMethodError(RPC_CODE.INVALID_ADDRESS_OR_KEY, "Error: Invalid address");
  return script;
}

function getRawTransaction(node: BitcoinRegtestNode, p: RpcParams): JsonValue {
  const txid = p.hash(0);
  const verbose = typeof p.get(1) === "boolean" ? p.bool(1, false) : p.int(1, 0) > 0;
  const location = p.has(2) ? inBlock(node, p.hash(2), txid) : node.chain.findTx(txid);
  const pending = location === undefined ? node.mempool.get(txid) : undefined;
  const tx = location?.entry.txs[location.index] ?? pending?.tx;
  if (tx === undefined) {
    throw new RpcMethodError(
      RPC_CODE.INVALID_ADDRESS_OR_KEY,
      "No such mempool or blockchain transaction. Use gettransaction for wallet transactions.",
    );
  }
  if (!verbose) return tx.toHex();
  const json = txJson(tx);
  if (location === undefined) return json;
  const { entry } = location;
  const active = node.chain.isActive(entry);
  return {
    ...json,
    ...(p.has(2) ? { in_active_chain: active } : {}),
    blockhash: entry.hash,
    confirmations: active ? node.chain.height - entry.height + 1 : 0,
    time: entry.time,
    blocktime: entry.time,
  };
}

function inBlock(node: BitcoinRegtestNode, blockhash: string, txid: string) {
  const entry = node.chain.byHash.get(blockhash);
  if (entry === undefined) throw new RpcMethodError(RPC_CODE.INVALID_ADDRESS_OR_KEY, "Block hash not found");
  const index = entry.txids.indexOf(txid);
  if (index < 0) {
    throw new RpcMethodError(
      RPC_CODE.INVALID_ADDRESS_OR_KEY,
      "No such transaction found in the provided block. Use gettransaction for wallet transactions.",
    );
  }
  return { entry, index };
}

function testMempoolAccept(node: BitcoinRegtestNode, p: RpcParams): JsonValue {
  const hexes = p.array(0);
  if (hexes.length !== 1) {
    throw new RpcMethodError(
      RPC_CODE.INVALID_PARAMETER,
      "the local regtest node tests one transaction at a time",
    );
  }
  const tx = decodeTx(typeof hexes[0] === "string" ? hexes[0] : "");
  const maxRate = p.amount(1, REGTEST.defaultMaxFeeRateSatKvB);
  const txid = tx.getId();
  const wtxid = wtxidOf(tx);
  try {
    const result = node.testAccept(tx, maxRate);
    const rate = (result.fee * 1000n) / BigInt(result.vsize);
    const fees = {
      base: new BtcAmount(result.fee),
      "effective-feerate": new BtcAmount(rate),
      "effective-includes": [wtxid],
    };
    return [{ txid, wtxid, allowed: true, vsize: result.vsize, fees }];
  } catch (error) {
    if (!(error instanceof TxRejectedError)) throw error;
    return [
      { txid, wtxid, allowed: false, "reject-reason": error.missingInputs ? "missing-inputs" : error.reason },
    ];
  }
}

function generateBlock(node: BitcoinRegtestNode, p: RpcParams): JsonValue {
  const script = addressToScript(p.string(0));
  if (script === null)
    throw new RpcMethodError(RPC_CODE.INVALID_ADDRESS_OR_KEY, "Error: Invalid address or descriptor");
  const txs = p.array(1).map((item) => {
    const text = typeof item === "string" ? item : "";
    if (/^[0-9a-fA-F]{64}$/.test(text)) {
      const entry = node.mempool.get(text.toLowerCase());
      if (entry === undefined)
        throw new RpcMethodError(RPC_CODE.INVALID_ADDRESS_OR_KEY, `Transaction ${text} not in mempool.`);
      return entry.tx;
    }
    try {
      return Transaction.fromHex(text);
    } catch {
      throw new RpcMethodError(
        RPC_CODE.DESERIALIZATION_ERROR,
        `Transaction decode failed for ${text}. Make sure the tx has at least one input.`,
      );
    }
  });
  try {
    return { hash: node.mineBlock(script, txs) };
  } catch (error) {
    if (!(error instanceof TxRejectedError)) throw error;
    throw new RpcMethodError(RPC_CODE.VERIFY_ERROR, `TestBlockValidity failed: ${error.message}`);
  }
}

function scanTxOutSet(node: BitcoinRegtestNode, p: RpcParams): JsonValue {
  const action = p.string(0);
  if (action === "abort") return false;
  if (action === "status") return null;
  if (action !== "start")
    throw new RpcMethodError(RPC_CODE.INVALID_PARAMETER, "Invalid action '" + action + "'");
  const wanted = new Set<string>();
  for (const item of p.array(1)) {
    const desc =
      typeof item === "string"
        ? item
        : typeof item === "object" && item !== null && "desc" in item
          ? item.desc
          : null;
    const script = typeof desc === "string" ? descriptorScript(desc, addressToScript) : null;
    if (script === null) {
      throw new RpcMethodError(
        RPC_CODE.INVALID_PARAMETER,
        `the local regtest node scans addr(<address>) and raw(<hex>) descriptors only, not ${JSON.stringify(item)}`,
      );
    }
    wanted.add(Buffer.from(script).toString("hex"));
  }
  const unspents: JsonValue[] = [];
  let total = 0n;
  let txouts = 0;
  for (const [txid, vout, coin] of node.chain.utxos.entries()) {
    txouts++;
    const scriptHex = Buffer.from(coin.script).toString("hex");
    if (!wanted.has(scriptHex)) continue;
    total += coin.value;
    unspents.push({
      txid,
      vout,
      scriptPubKey: scriptHex,
      desc: inferDescriptor(coin.script),
      amount: new BtcAmount(coin.value),
      coinbase: coin.coinbase,
      height: coin.height,
    });
  }
  return {
    success: true,
    txouts,
    height: node.chain.height,
    bestblock: node.chain.tip.hash,
    unspents,
    total_amount: new BtcAmount(total),
  };
}

export const TX_METHODS: Record<string, RpcMethod> = {
  getrawtransaction: { params: ["txid", "verbose", "blockhash"], run: getRawTransaction },
  decoderawtransaction: {
    params: ["hexstring", "iswitness"],
    run: (_node, p) => {
      const { hex: _hex, ...decoded } = txJson(decodeTx(p.string(0)));
      return decoded;
    },
  },
  sendrawtransaction: {
    params: ["hexstring", "maxfeerate", "maxburnamount"],
    run: (node, p) =>
      node.sendTransaction(decodeTx(p.string(0)), {
        maxFeeRateSatKvB: p.amount(1, REGTEST.defaultMaxFeeRateSatKvB),
        maxBurnSats: p.amount(2, 0n),
      }),
  },
  testmempoolaccept: { params: ["rawtxs", "maxfeerate"], run: testMempoolAccept },
  getrawmempool: {
    params: ["verbose", "mempool_sequence"],
    run: (node, p) => {
      const entries = node.mempool.entries();
      if (!p.bool(0, false)) return entries.map((e) => e.txid);
      return Object.fromEntries(entries.map((e) => [e.txid, mempoolEntryJson(node.mempool, e)]));
    },
  },
  getmempoolentry: {
    params: ["txid"],
    run: (node, p) => {
      const entry = node.mempool.get(p.hash(0));
      if (entry === undefined)
        throw new RpcMethodError(RPC_CODE.INVALID_ADDRESS_OR_KEY, "Transaction not in mempool");
      return mempoolEntryJson(node.mempool, entry);
    },
  },
  generatetoaddress: {
    params: ["nblocks", "address", "maxtries"],
    run: (node, p) => {
      const count = p.int(0);
      if (count < 0) throw new RpcMethodError(RPC_CODE.INVALID_PARAMETER, "nblocks must not be negative");
      return node.mine(count, payoutScript(p.string(1)));
    },
  },
  generateblock: { params: ["output", "transactions", "submit"], run: generateBlock },
  estimatesmartfee: {
    params: ["conf_target", "estimate_mode"],
    run: (node, p) => {
      const target = p.int(0);
      if (target < 1 || target > 1008) {
        throw new RpcMethodError(
          RPC_CODE.INVALID_PARAMETER,
          "Invalid conf_target, must be between 1 and 1008",
        );
      }
      return { feerate: new BtcAmount(node.feeRateSatKvB), blocks: target };
    },
  },
  scantxoutset: { params: ["action", "scanobjects"], run: scanTxOutSet },
};
