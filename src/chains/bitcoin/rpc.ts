/**
 * Client of bitcoind's JSON-RPC (1.0 style, as bitcoind speaks it), for the subset the solver and the
 * tests use. It works against a real `bitcoind` and against the project's local regtest node alike.
 *
 * Amounts: bitcoind writes BTC values as JSON numbers with 8 decimals (`0.00012345`). Parsing them with
 * JSON.parse would go through binary floating point, so the response text is first rewritten: every
 * number token outside a string that has a fraction or an exponent (or is too large for a double) is
 * turned into a JSON string holding its exact text, which `btcToSats` then converts with integer
 * arithmetic. Results therefore carry amounts as `bigint` satoshis, in fields named `<bitcoindName>Sats`;
 * every other field keeps bitcoind's name.
 *
 * It may be given several endpoints of the same chain: they are used as one (see `BitcoinRpcClient`).
 */
import type { Logger } from "pino";
import { endpointLabels } from "../rpc/endpoint-labels.js";
import { EndpointPool, type EndpointPoolOptions } from "../rpc/endpoint-pool.js";
import { RpcUnavailableError } from "../rpc/errors.js";
import type { HeadReading } from "../rpc/head-age.js";
import { BitcoinRpcEndpoint } from "./rpc-endpoint.js";
import {
  BitcoinRpcError,
  BitcoinRpcTransportError,
  btcToSats,
  parseRpcJson,
  RpcErrorCode,
  satsToBtc,
} from "./rpc-wire.js";

export { BitcoinRpcError, BitcoinRpcTransportError, btcToSats, parseRpcJson, RpcErrorCode, satsToBtc };

// ---------------------------------------------------------------------------------------------------
// Result types (bitcoind's field names; amounts as `<name>Sats: bigint`)

export interface RpcScriptPubKey {
  asm: string;
  hex: string;
  type: string;
  address?: string;
}

export interface RpcTxIn {
  /** Absent on a coinbase input. */
  txid?: string;
  vout?: number;
  /** Hex of the coinbase scriptSig, on a coinbase input only. */
  coinbase?: string;
  scriptSig?: { asm: string; hex: string };
  /** Witness stack items, hex; empty when the input has no witness. */
  txinwitness: string[];
  sequence: number;
}

export interface RpcTxOut {
  valueSats: bigint;
  n: number;
  scriptPubKey: RpcScriptPubKey;
}

export interface RpcTransaction {
  txid: string;
  hash: string;
  version: number;
  size: number;
  vsize: number;
  weight: number;
  locktime: number;
  vin: RpcTxIn[];
  vout: RpcTxOut[];
  /** Present in getrawtransaction answers and getblock verbosity 2. */
  hex?: string;
  /** Present in getblock verbosity 2 for non-coinbase transactions. */
  feeSats?: bigint;
}

export interface RpcRawTransaction extends RpcTransaction {
  hex: string;
  /** The following are present once the transaction is in a block of the active chain. */
  blockhash?: string;
  confirmations?: number;
  blocktime?: number;
  time?: number;
}

export interface RpcBlockHeader {
  hash: string;
  confirmations: number;
  height: number;
  version: number;
  versionHex: string;
  merkleroot: string;
  time: number;
  mediantime: number;
  nonce: number;
  bits: string;
  difficulty: number;
  chainwork: string;
  nTx: number;
  previousblockhash?: string;
  nextblockhash?: string;
}

export interface RpcBlock extends RpcBlockHeader {
  size: number;
  strippedsize: number;
  weight: number;
  tx: string[];
}

export interface RpcBlockWithTransactions extends RpcBlockHeader {
  size: number;
  strippedsize: number;
  weight: number;
  tx: RpcTransaction[];
}

export interface RpcTxOutInfo {
  bestblock: string;
  /** 0 while the output is only in the mempool. */
  confirmations: number;
  valueSats: bigint;
  scriptPubKey: RpcScriptPubKey;
  coinbase: boolean;
}

export interface RpcMempoolEntry {
  vsize: number;
  weight: number;
  time: number;
  height: number;
  descendantcount: number;
  descendantsize: number;
  ancestorcount: number;
  ancestorsize: number;
  wtxid: string;
  fees: { baseSats: bigint; modifiedSats: bigint; ancestorSats: bigint; descendantSats: bigint };
  depends: string[];
  spentby: string[];
  "bip125-replaceable": boolean;
}

export interface RpcMempoolAcceptResult {
  txid: string;
  wtxid: string;
  allowed: boolean;
  vsize?: number;
  fees?: { baseSats: bigint };
  /** bitcoind's reject reason without details, e.g. `non-BIP68-final`, `missing-inputs`. */
  "reject-reason"?: string;
}

export interface RpcScannedUtxo {
  txid: string;
  vout: number;
  scriptPubKey: string;
  desc: string;
  amountSats: bigint;
  coinbase: boolean;
  height: number;
}

export interface RpcScanResult {
  success: boolean;
  height: number;
  bestblock: string;
  unspents: RpcScannedUtxo[];
  totalAmountSats: bigint;
}

export interface RpcSmartFee {
  /** Fee rate in sats per 1000 virtual bytes; null when the node has no estimate (fresh regtest). */
  feeRateSatKvB: bigint | null;
  blocks: number;
  errors: string[];
}

export interface RpcBlockchainInfo {
  chain: string;
  blocks: number;
  headers: number;
  bestblockhash: string;
  mediantime: number;
  initialblockdownload: boolean;
}

export interface BitcoinRpcClientOptions {
  /** `http://host:port`; credentials in the URL are moved to the Authorization header. */
  url?: string;
  /** Several endpoints of one chain, used as one (see the endpoint pool); with `url`, it comes first. */
  urls?: string[];
  /** Credentials for the endpoints whose URL carries none. */
  user?: string;
  password?: string;
  /** Per-request timeout; default 30 s. */
  timeoutMs?: number;
  /** Chain name in errors and logs; default `bitcoin`. */
  chain?: string;
  /** An endpoint whose block count lags the best by more than this is not read from; default 1. */
  maxHeadLagBlocks?: number;
  /** A tip whose median time past is older than this is stale (see freshTip); default: not judged. */
  maxHeadAgeMs?: number;
  /** How often block counts are compared, at most; default 30 s (a tenth of a block). */
  headRefreshMs?: number;
  logger?: Logger;
  /** Pool settings beyond the above (tests shorten waits with these). */
  pool?: Partial<EndpointPoolOptions<BitcoinRpcEndpoint>>;
}

/** Methods whose answer does not depend on how far the node has synced. */
const ANY_ENDPOINT_METHODS = new Set(["estimatesmartfee", "getnetworkinfo", "uptime"]);
/** bitcoind's ways of saying "I already have this transaction". */
const ALREADY_KNOWN = [/txn-already-known/, /txn-already-in-mempool/, /already in block ?chain/i];

/** A rejection that means the node already has the transaction (in its mempool or chain). */
export function isAlreadyKnownRejection(error: unknown): boolean {
  return (
    error instanceof BitcoinRpcError &&
    (error.code === RpcErrorCode.VERIFY_ALREADY_IN_CHAIN ||
      ALREADY_KNOWN.some((re) => re.test(error.rpcMessage)))
  );
}

/**
 * The tip of a `getblockchaininfo` answer, timed by its median time past: unlike a block's own time,
 * which a miner may set up to two hours ahead, it cannot run ahead of the clock.
 */
function chainInfoHead(result: unknown): HeadReading | null {
  if (typeof result !== "object" || result === null) return null;
  const { blocks, mediantime } = result as { blocks?: unknown; mediantime?: unknown };
  if (typeof blocks !== "number") return null;
  return { height: blocks, timeMs: typeof mediantime === "number" ? mediantime * 1000 : null };
}

function headOf(method: string, result: unknown): HeadReading | null {
  if (method === "getblockcount" && typeof result === "number") return { height: result, timeMs: null };
  return method === "getblockchaininfo" ? chainInfoHead(result) : null;
}

function endpointsOf(options: BitcoinRpcClientOptions): BitcoinRpcEndpoint[] {
  const urls = [...(options.url === undefined ? [] : [options.url]), ...(options.urls ?? [])];
  if (urls.length === 0) throw new Error("BitcoinRpcClient needs a url or urls");
  const labels = endpointLabels(urls);
  return urls.map(
    (url, i) =>
      new BitcoinRpcEndpoint({
        url,
        label: labels[i] ?? url,
        timeoutMs: options.timeoutMs ?? 30_000,
        ...(options.user === undefined ? {} : { user: options.user }),
        ...(options.password === undefined ? {} : { password: options.password }),
      }),
  );
}

// ---------------------------------------------------------------------------------------------------
// The client

/**
 * Every call goes through an endpoint pool: reads fail over between endpoints and skip one that is
 * behind, `sendrawtransaction` goes to every endpoint, and `sticky` keeps a series of reads on one.
 * With a single URL the pool is that one endpoint, retried on passing faults.
 */
export class BitcoinRpcClient {
  /** The first endpoint's URL, without credentials. */
  readonly url: string;
  readonly pool: EndpointPool<BitcoinRpcEndpoint>;

  constructor(options: BitcoinRpcClientOptions) {
    const endpoints = endpointsOf(options);
    this.url = endpoints[0]?.url ?? "";
    this.pool = new EndpointPool<BitcoinRpcEndpoint>({
      chain: options.chain ?? "bitcoin",
      endpoints,
      readHead: async (e) => {
        const info = await e.call("getblockchaininfo", []);
        const head = chainInfoHead(info);
        if (head === null) throw new Error(`${e.label}: getblockchaininfo answered no block count`);
        return head;
      },
      maxHeadLagBlocks: options.maxHeadLagBlocks ?? 1,
      ...(options.maxHeadAgeMs === undefined ? {} : { maxHeadAgeMs: options.maxHeadAgeMs }),
      headRefreshMs: options.headRefreshMs ?? 30_000,
      timeoutMs: options.timeoutMs ?? 30_000,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...options.pool,
    });
  }

  /** Calls any method; the result is parsed losslessly (see the file comment) but not typed. */
  async call(method: string, params: unknown[] = []): Promise<unknown> {
    try {
      if (method === "sendrawtransaction") {
        return await this.pool.broadcast(method, (e) => e.call(method, params), {
          preferAnswer: isAlreadyKnownRejection,
        });
      }
      return await this.pool.read(
        method,
        async (endpoint) => {
          const result = await endpoint.call(method, params);
          const head = headOf(method, result);
          if (head !== null) this.pool.noteHead(endpoint, head.height, head.timeMs);
          return result;
        },
        { current: !ANY_ENDPOINT_METHODS.has(method) },
      );
    } catch (error) {
      if (error instanceof RpcUnavailableError)
        throw new BitcoinRpcTransportError(method, error.message, error.lastStatus, error);
      throw error;
    }
  }

  /** Runs `fn` with every call of this client inside it on one endpoint (see the endpoint pool). */
  async sticky<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await this.pool.sticky(what, fn);
    } catch (error) {
      if (error instanceof RpcUnavailableError)
        throw new BitcoinRpcTransportError(what, error.message, error.lastStatus, error);
      throw error;
    }
  }

  async getBlockchainInfo(): Promise<RpcBlockchainInfo> {
    const r = rec(await this.call("getblockchaininfo"), "getblockchaininfo");
    return {
      chain: str(r, "chain"),
      blocks: int(r, "blocks"),
      headers: int(r, "headers"),
      bestblockhash: str(r, "bestblockhash"),
      mediantime: int(r, "mediantime"),
      initialblockdownload: bool(r, "initialblockdownload"),
    };
  }

  async getBlockCount(): Promise<number> {
    return intValue(await this.call("getblockcount"), "getblockcount");
  }

  /**
   * The block count of an endpoint whose tip is not stale (EndpointPool.freshHead): the tip confirmations
   * and timelocks are counted from.
   */
  async freshTip(): Promise<number> {
    try {
      return (await this.pool.freshHead("getblockchaininfo")).height;
    } catch (error) {
      if (error instanceof RpcUnavailableError)
        throw new BitcoinRpcTransportError("getblockchaininfo", error.message, error.lastStatus, error);
      throw error;
    }
  }

  async getBestBlockHash(): Promise<string> {
    return strValue(await this.call("getbestblockhash"), "getbestblockhash");
  }

  async getBlockHash(height: number): Promise<string> {
    return strValue(await this.call("getblockhash", [height]), "getblockhash");
  }

  async getBlockHeader(hash: string): Promise<RpcBlockHeader> {
    return toHeader(rec(await this.call("getblockheader", [hash, true]), "getblockheader"));
  }

  /** verbosity 0: serialized block hex; 1: txids; 2: decoded transactions (with fees). */
  getBlock(hash: string, verbosity: 0): Promise<string>;
  getBlock(hash: string, verbosity?: 1): Promise<RpcBlock>;
  getBlock(hash: string, verbosity: 2): Promise<RpcBlockWithTransactions>;
  async getBlock(
    hash: string,
    verbosity: 0 | 1 | 2 = 1,
  ): Promise<string | RpcBlock | RpcBlockWithTransactions> {
    const raw = await this.call("getblock", [hash, verbosity]);
    if (verbosity === 0) return strValue(raw, "getblock");
    const r = rec(raw, "getblock");
    const sizes = { size: int(r, "size"), strippedsize: int(r, "strippedsize"), weight: int(r, "weight") };
    const txs = arr(r, "tx");
    if (verbosity === 1) return { ...toHeader(r), ...sizes, tx: txs.map((t) => strValue(t, "getblock.tx")) };
    return { ...toHeader(r), ...sizes, tx: txs.map((t) => toTransaction(rec(t, "getblock.tx"))) };
  }

  async getRawTransactionHex(txid: string, blockhash?: string): Promise<string> {
    const params: unknown[] = blockhash === undefined ? [txid, 0] : [txid, 0, blockhash];
    return strValue(await this.call("getrawtransaction", params), "getrawtransaction");
  }

  async getRawTransactionVerbose(txid: string, blockhash?: string): Promise<RpcRawTransaction> {
    const params: unknown[] = blockhash === undefined ? [txid, 1] : [txid, 1, blockhash];
    const r = rec(await this.call("getrawtransaction", params), "getrawtransaction");
    return {
      ...toTransaction(r),
      hex: str(r, "hex"),
      ...optional(r, "blockhash", str),
      ...optional(r, "confirmations", int),
      ...optional(r, "blocktime", int),
      ...optional(r, "time", int),
    };
  }

  /** The unspent output, or null when it does not exist or is spent (in the mempool too, if included). */
  async getTxOut(txid: string, vout: number, includeMempool = true): Promise<RpcTxOutInfo | null> {
    const raw = await this.call("gettxout", [txid, vout, includeMempool]);
    if (raw === null) return null;
    const r = rec(raw, "gettxout");
    return {
      bestblock: str(r, "bestblock"),
      confirmations: int(r, "confirmations"),
      valueSats: amount(r, "value"),
      scriptPubKey: toScriptPubKey(rec(r.scriptPubKey, "scriptPubKey")),
      coinbase: bool(r, "coinbase"),
    };
  }

  async getRawMempool(): Promise<string[]> {
    const raw = await this.call("getrawmempool", [false]);
    if (!Array.isArray(raw)) throw shapeError("getrawmempool", "an array");
    return raw.map((t) => strValue(t, "getrawmempool"));
  }

  async getRawMempoolVerbose(): Promise<Record<string, RpcMempoolEntry>> {
    const r = rec(await this.call("getrawmempool", [true]), "getrawmempool");
    return Object.fromEntries(Object.entries(r).map(([txid, e]) => [txid, toMempoolEntry(rec(e, txid))]));
  }

  async getMempoolEntry(txid: string): Promise<RpcMempoolEntry> {
    return toMempoolEntry(rec(await this.call("getmempoolentry", [txid]), "getmempoolentry"));
  }

  /**
   * Broadcasts a signed transaction and returns its txid. `maxFeeRateBtcKvB` is bitcoind's `maxfeerate`
   * as a decimal string (default "0.10"); "0" disables the check.
   */
  async sendRawTransaction(hex: string, maxFeeRateBtcKvB?: string): Promise<string> {
    const params: unknown[] = [hex];
    // bitcoind reads amounts from strings too, which keeps the value exact on the wire.
    if (maxFeeRateBtcKvB !== undefined) params.push(maxFeeRateBtcKvB);
    return strValue(await this.call("sendrawtransaction", params), "sendrawtransaction");
  }

  async testMempoolAccept(hexes: string[]): Promise<RpcMempoolAcceptResult[]> {
    const raw = await this.call("testmempoolaccept", [hexes]);
    if (!Array.isArray(raw)) throw shapeError("testmempoolaccept", "an array");
    return raw.map((item) => {
      const r = rec(item, "testmempoolaccept");
      const fees = r.fees === undefined ? {} : { fees: { baseSats: amount(rec(r.fees, "fees"), "base") } };
      return {
        txid: str(r, "txid"),
        wtxid: str(r, "wtxid"),
        allowed: bool(r, "allowed"),
        ...optional(r, "vsize", int),
        ...fees,
        ...optional(r, "reject-reason", str),
      };
    });
  }

  async generateToAddress(blocks: number, address: string): Promise<string[]> {
    const raw = await this.call("generatetoaddress", [blocks, address]);
    if (!Array.isArray(raw)) throw shapeError("generatetoaddress", "an array");
    return raw.map((h) => strValue(h, "generatetoaddress"));
  }

  /** Mines one block paying `output` (address) with exactly these transactions (txids in the mempool or raw hex). */
  async generateBlock(output: string, transactions: string[]): Promise<string> {
    return str(rec(await this.call("generateblock", [output, transactions]), "generateblock"), "hash");
  }

  async invalidateBlock(hash: string): Promise<void> {
    await this.call("invalidateblock", [hash]);
  }

  async reconsiderBlock(hash: string): Promise<void> {
    await this.call("reconsiderblock", [hash]);
  }

  async estimateSmartFee(
    confTarget: number,
    mode: "conservative" | "economical" = "conservative",
  ): Promise<RpcSmartFee> {
    const r = rec(await this.call("estimatesmartfee", [confTarget, mode]), "estimatesmartfee");
    const errors = r.errors === undefined ? [] : arr(r, "errors").map((e) => strValue(e, "errors"));
    const feeRateSatKvB = r.feerate === undefined ? null : amount(r, "feerate");
    return { feeRateSatKvB, blocks: int(r, "blocks"), errors };
  }

  /** Unspent confirmed outputs paying these addresses (`scantxoutset start ["addr(...)"]`). */
  async scanTxOutSet(addresses: string[]): Promise<RpcScanResult> {
    const descriptors = addresses.map((a) => `addr(${a})`);
    const r = rec(await this.call("scantxoutset", ["start", descriptors]), "scantxoutset");
    return {
      success: bool(r, "success"),
      height: int(r, "height"),
      bestblock: str(r, "bestblock"),
      unspents: arr(r, "unspents").map((u) => toScannedUtxo(rec(u, "unspents"))),
      totalAmountSats: amount(r, "total_amount"),
    };
  }

  async getNetworkInfo(): Promise<{ version: number; subversion: string }> {
    const r = rec(await this.call("getnetworkinfo"), "getnetworkinfo");
    return { version: int(r, "version"), subversion: str(r, "subversion") };
  }

  async uptime(): Promise<number> {
    return intValue(await this.call("uptime"), "uptime");
  }
}

// ---------------------------------------------------------------------------------------------------
// Shape checks of replies (a node that answers something else is a bug worth a clear message)

type Rec = Record<string, unknown>;

function isRecord(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function shapeError(what: string, expected: string): Error {
  return new Error(`bitcoind reply field ${what} is not ${expected}`);
}

function rec(value: unknown, what: string): Rec {
  if (!isRecord(value)) throw shapeError(what, "an object");
  return value;
}

function strValue(value: unknown, what: string): string {
  if (typeof value !== "string") throw shapeError(what, "a string");
  return value;
}

function intValue(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isInteger(value)) throw shapeError(what, "an integer");
  return value;
}

function str(r: Rec, key: string): string {
  return strValue(r[key], key);
}

function int(r: Rec, key: string): number {
  return intValue(r[key], key);
}

function bool(r: Rec, key: string): boolean {
  if (typeof r[key] !== "boolean") throw shapeError(key, "a boolean");
  return r[key];
}

function arr(r: Rec, key: string): unknown[] {
  const value = r[key];
  if (!Array.isArray(value)) throw shapeError(key, "an array");
  return value;
}

function amount(r: Rec, key: string): bigint {
  const value = r[key];
  if (typeof value !== "string" && typeof value !== "number") throw shapeError(key, "a BTC amount");
  return btcToSats(value);
}

/** Numbers with a fraction arrive as strings (see parseRpcJson); difficulty is not an amount. */
function looseNumber(r: Rec, key: string): number {
  const value = r[key];
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)))
    return Number(value);
  throw shapeError(key, "a number");
}

function optional<K extends string, T>(r: Rec, key: K, read: (r: Rec, key: string) => T): { [P in K]?: T } {
  return (r[key] === undefined ? {} : { [key]: read(r, key) }) as { [P in K]?: T };
}

function toHeader(r: Rec): RpcBlockHeader {
  return {
    hash: str(r, "hash"),
    confirmations: int(r, "confirmations"),
    height: int(r, "height"),
    version: int(r, "version"),
    versionHex: str(r, "versionHex"),
    merkleroot: str(r, "merkleroot"),
    time: int(r, "time"),
    mediantime: int(r, "mediantime"),
    nonce: int(r, "nonce"),
    bits: str(r, "bits"),
    difficulty: looseNumber(r, "difficulty"),
    chainwork: str(r, "chainwork"),
    nTx: int(r, "nTx"),
    ...optional(r, "previousblockhash", str),
    ...optional(r, "nextblockhash", str),
  };
}

function toScriptPubKey(r: Rec): RpcScriptPubKey {
  return { asm: str(r, "asm"), hex: str(r, "hex"), type: str(r, "type"), ...optional(r, "address", str) };
}

function toTxIn(r: Rec): RpcTxIn {
  const witness = r.txinwitness === undefined ? [] : arr(r, "txinwitness").map((w) => strValue(w, "witness"));
  const scriptSig = r.scriptSig === undefined ? {} : { scriptSig: rec(r.scriptSig, "scriptSig") };
  return {
    ...optional(r, "txid", str),
    ...optional(r, "vout", int),
    ...optional(r, "coinbase", str),
    ...(scriptSig.scriptSig === undefined
      ? {}
      : { scriptSig: { asm: str(scriptSig.scriptSig, "asm"), hex: str(scriptSig.scriptSig, "hex") } }),
    txinwitness: witness,
    sequence: int(r, "sequence"),
  };
}

function toTransaction(r: Rec): RpcTransaction {
  return {
    txid: str(r, "txid"),
    hash: str(r, "hash"),
    version: int(r, "version"),
    size: int(r, "size"),
    vsize: int(r, "vsize"),
    weight: int(r, "weight"),
    locktime: int(r, "locktime"),
    vin: arr(r, "vin").map((v) => toTxIn(rec(v, "vin"))),
    vout: arr(r, "vout").map((v) => {
      const o = rec(v, "vout");
      return {
        valueSats: amount(o, "value"),
        n: int(o, "n"),
        scriptPubKey: toScriptPubKey(rec(o.scriptPubKey, "spk")),
      };
    }),
    ...optional(r, "hex", str),
    ...(r.fee === undefined ? {} : { feeSats: amount(r, "fee") }),
  };
}

function toMempoolEntry(r: Rec): RpcMempoolEntry {
  const fees = rec(r.fees, "fees");
  return {
    vsize: int(r, "vsize"),
    weight: int(r, "weight"),
    time: int(r, "time"),
    height: int(r, "height"),
    descendantcount: int(r, "descendantcount"),
    descendantsize: int(r, "descendantsize"),
    ancestorcount: int(r, "ancestorcount"),
    ancestorsize: int(r, "ancestorsize"),
    wtxid: str(r, "wtxid"),
    fees: {
      baseSats: amount(fees, "base"),
      modifiedSats: amount(fees, "modified"),
      ancestorSats: amount(fees, "ancestor"),
      descendantSats: amount(fees, "descendant"),
    },
    depends: arr(r, "depends").map((d) => strValue(d, "depends")),
    spentby: arr(r, "spentby").map((d) => strValue(d, "spentby")),
    "bip125-replaceable": bool(r, "bip125-replaceable"),
  };
}

function toScannedUtxo(r: Rec): RpcScannedUtxo {
  return {
    txid: str(r, "txid"),
    vout: int(r, "vout"),
    scriptPubKey: str(r, "scriptPubKey"),
    desc: str(r, "desc"),
    amountSats: amount(r, "amount"),
    coinbase: bool(r, "coinbase"),
    height: int(r, "height"),
  };
}
