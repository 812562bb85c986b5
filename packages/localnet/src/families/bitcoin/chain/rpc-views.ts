import type { Transaction } from "bitcoinjs-lib";
import type { BlockEntry, ChainState } from "./chain.js";
import { isCoinbaseTx, prevTxid, wtxidOf, type Coin } from "./coins.js";
import { inferDescriptor } from "./descriptor.js";
import type { Mempool, MempoolEntry } from "./mempool.js";
import { describeOutput, scriptToAsm } from "./output-script.js";
import { REGTEST } from "./params.js";
import { BtcAmount, type JsonValue } from "./rpc-json.js";

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

/** Regtest's difficulty for its fixed compact target (a float, as bitcoind reports it). */
export function difficulty(bits: number): number {
  let shift = (bits >>> 24) & 0xff;
  let diff = 0xffff / (bits & 0x00ffffff);
  for (; shift < 29; shift++) diff *= 256;
  for (; shift > 29; shift--) diff /= 256;
  return diff;
}

/** Each regtest block adds 2 to the chain work (2^256 / (target + 1) for 0x207fffff). */
export function chainwork(height: number): string {
  return (BigInt(height + 1) * 2n).toString(16).padStart(64, "0");
}

export function scriptPubKeyJson(script: Uint8Array): JsonValue {
  const { type, address, asm } = describeOutput(script);
  return { asm, desc: inferDescriptor(script), hex: hex(script), address, type };
}

function vinJson(tx: Transaction): JsonValue[] {
  const coinbase = isCoinbaseTx(tx);
  return tx.ins.map((input) => {
    const witness = input.witness.length > 0 ? input.witness.map(hex) : undefined;
    if (coinbase) return { coinbase: hex(input.script), txinwitness: witness, sequence: input.sequence };
    return {
      txid: prevTxid(input),
      vout: input.index,
      scriptSig: { asm: scriptToAsm(input.script), hex: hex(input.script) },
      txinwitness: witness,
      sequence: input.sequence,
    };
  });
}

/** bitcoind's TxToUniv: the decoded transaction, with `fee` when known and `hex`. */
export function txJson(tx: Transaction, fee?: bigint): { [key: string]: JsonValue | undefined } {
  return {
    txid: tx.getId(),
    hash: wtxidOf(tx),
    version: tx.version,
    size: tx.byteLength(),
    vsize: tx.virtualSize(),
    weight: tx.weight(),
    locktime: tx.locktime,
    vin: vinJson(tx),
    vout: tx.outs.map((out, n) => ({
      value: new BtcAmount(out.value),
      n,
      scriptPubKey: scriptPubKeyJson(out.script),
    })),
    fee: fee === undefined ? undefined : new BtcAmount(fee),
    hex: tx.toHex(),
  };
}

export function blockHeaderJson(
  chain: ChainState,
  entry: BlockEntry,
): { [key: string]: JsonValue | undefined } {
  const next = chain.isActive(entry) ? chain.atHeight(entry.height + 1) : undefined;
  return {
    hash: entry.hash,
    confirmations: chain.confirmations(entry),
    height: entry.height,
    version: entry.block.version,
    versionHex: (entry.block.version >>> 0).toString(16).padStart(8, "0"),
    merkleroot: Buffer.from(entry.block.merkleRoot ?? new Uint8Array(32))
      .reverse()
      .toString("hex"),
    time: entry.time,
    mediantime: entry.medianTimePast,
    nonce: entry.block.nonce,
    bits: entry.block.bits.toString(16).padStart(8, "0"),
    difficulty: difficulty(entry.block.bits),
    chainwork: chainwork(entry.height),
    nTx: entry.txs.length,
    previousblockhash: entry.prevHash ?? undefined,
    nextblockhash: next?.hash,
  };
}

/** getblock verbosity 1 (txids) or 2 (decoded transactions with fees). */
export function blockJson(chain: ChainState, entry: BlockEntry, verbosity: 1 | 2): JsonValue {
  const stripped = entry.block.byteLength(false, false);
  const tx =
    verbosity === 1
      ? entry.txids
      : entry.txs.map((t, i) => txJson(t, i === 0 || entry.undo.length === 0 ? undefined : entry.fees[i]));
  return {
    ...blockHeaderJson(chain, entry),
    strippedsize: stripped,
    size: entry.block.byteLength(false, true),
    weight: entry.block.weight(),
    tx,
  };
}

export function mempoolEntryJson(mempool: Mempool, entry: MempoolEntry): JsonValue {
  const ancestors = [...mempool.ancestors(entry.tx)]
    .map((t) => mempool.get(t))
    .filter((e) => e !== undefined);
  const descendants = [...mempool.withDescendants(entry.txid)]
    .map((t) => mempool.get(t))
    .filter((e) => e !== undefined);
  const sum = (list: MempoolEntry[], pick: (e: MempoolEntry) => bigint): bigint =>
    list.reduce((acc, e) => acc + pick(e), 0n);
  const withSelf = [entry, ...ancestors];
  return {
    vsize: entry.vsize,
    weight: entry.weight,
    time: entry.time,
    height: entry.height,
    descendantcount: descendants.length,
    descendantsize: Number(sum(descendants, (e) => BigInt(e.vsize))),
    ancestorcount: withSelf.length,
    ancestorsize: Number(sum(withSelf, (e) => BigInt(e.vsize))),
    wtxid: entry.wtxid,
    fees: {
      base: new BtcAmount(entry.fee),
      modified: new BtcAmount(entry.fee),
      ancestor: new BtcAmount(sum(withSelf, (e) => e.fee)),
      descendant: new BtcAmount(sum(descendants, (e) => e.fee)),
    },
    depends: mempool.parents(entry.tx),
    spentby: mempool.children(entry.txid),
    "bip125-replaceable": isReplaceable(mempool, entry),
    unbroadcast: false,
  };
}

/** BIP-125 replaceability as reported by bitcoind: the transaction or an unconfirmed ancestor signals it. */
function isReplaceable(mempool: Mempool, entry: MempoolEntry): boolean {
  const signals = (e: MempoolEntry | undefined): boolean =>
    e?.tx.ins.some((i) => i.sequence <= 0xfffffffd) ?? false;
  return signals(entry) || [...mempool.ancestors(entry.tx)].some((t) => signals(mempool.get(t)));
}

export function txOutJson(chain: ChainState, coin: Coin, confirmations: number): JsonValue {
  return {
    bestblock: chain.tip.hash,
    confirmations,
    value: new BtcAmount(coin.value),
    scriptPubKey: scriptPubKeyJson(coin.script),
    coinbase: coin.coinbase,
  };
}

export const NETWORK_INFO: JsonValue = {
  version: 260000,
  subversion: "/LocalRegtest:26.0.0/",
  protocolversion: 70016,
  localservices: "0000000000000409",
  localservicesnames: ["NETWORK", "WITNESS", "NETWORK_LIMITED"],
  localrelay: true,
  timeoffset: 0,
  networkactive: false,
  connections: 0,
  connections_in: 0,
  connections_out: 0,
  networks: [],
  relayfee: new BtcAmount(REGTEST.minRelayFeeSatKvB),
  incrementalfee: new BtcAmount(REGTEST.incrementalRelayFeeSatKvB),
  localaddresses: [],
  warnings: "",
};
