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
 */

const SATS_PER_BTC = 100_000_000n;

export class BitcoinRpcError extends Error {
  override readonly name = "BitcoinRpcError";
  constructor(
    readonly method: string,
    /** bitcoind's error code, e.g. -26 (rejected), -25 (verify error), -5 (not found), -32601. */
    readonly code: number,
    /** bitcoind's error message, e.g. `bad-txns-inputs-missingorspent`. */
    readonly rpcMessage: string,
  ) {
    super(`bitcoind ${method} failed (code ${code}): ${rpcMessage}`);
  }
}

/** The node could not be reached or answered with something that is not a JSON-RPC reply. */
export class BitcoinRpcTransportError extends Error {
  override readonly name = "BitcoinRpcTransportError";
  constructor(
    readonly method: string,
    readonly reason: string,
    /** HTTP status when the node answered (401 for bad credentials); null when it did not. */
    readonly status: number | null,
  ) {
    super(`bitcoind ${method} transport failure${status === null ? "" : ` (HTTP ${status})`}: ${reason}`);
  }
}

/** bitcoind's RPC error codes the callers branch on. */
export const RpcErrorCode = {
  MISC_ERROR: -1,
  TYPE_ERROR: -3,
  INVALID_ADDRESS_OR_KEY: -5,
  INVALID_PARAMETER: -8,
  DESERIALIZATION_ERROR: -22,
  VERIFY_ERROR: -25,
  VERIFY_REJECTED: -26,
  VERIFY_ALREADY_IN_CHAIN: -27,
  METHOD_NOT_FOUND: -32601,
  INVALID_REQUEST: -32600,
  INTERNAL_ERROR: -32603,
  PARSE_ERROR: -32700,
} as const;

// ---------------------------------------------------------------------------------------------------
// Amounts and lossless JSON

/** Converts a BTC amount (decimal text such as "0.00012345", "-1", "1e-05", or a safe integer) to sats. */
export function btcToSats(value: string | number): bigint {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new Error(`BTC amount ${value} is not an exact integer`);
    return BigInt(value) * SATS_PER_BTC;
  }
  const match = /^(-?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(value.trim());
  if (match === null) throw new Error(`BTC amount "${value}" is not a decimal number`);
  const [, sign = "", intPart = "0", fracPart = "", expText = "0"] = match;
  // Shift the decimal point by the exponent, then by 8 places for satoshis, as pure digit strings.
  const shift = Number(expText) + 8;
  let digits = intPart + fracPart;
  let pointAt = intPart.length + shift;
  if (pointAt < 0) {
    digits = "0".repeat(-pointAt) + digits;
    pointAt = 0;
  }
  if (pointAt > digits.length) digits = digits + "0".repeat(pointAt - digits.length);
  const whole = digits.slice(0, pointAt) || "0";
  const rest = digits.slice(pointAt);
  if (/[^0]/.test(rest)) throw new Error(`BTC amount "${value}" has more than 8 decimal places`);
  const sats = BigInt(whole);
  return sign === "-" ? -sats : sats;
}

/** Formats sats as bitcoind prints BTC: optional minus sign, integer part, 8 decimals. */
export function satsToBtc(sats: bigint): string {
  const negative = sats < 0n;
  const abs = negative ? -sats : sats;
  const frac = (abs % SATS_PER_BTC).toString().padStart(8, "0");
  return `${negative ? "-" : ""}${abs / SATS_PER_BTC}.${frac}`;
}

const NUMBER_TOKEN = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * JSON.parse that keeps the exact text of non-integer numbers (and of integers beyond 2^53) by turning
 * them into strings; integers that a double holds exactly stay numbers.
 */
export function parseRpcJson(text: string): unknown {
  let out = "";
  let copiedTo = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      continue;
    }
    if (ch !== "-" && (ch === undefined || ch < "0" || ch > "9")) continue;
    NUMBER_TOKEN.lastIndex = i;
    const token = NUMBER_TOKEN.exec(text)?.[0];
    if (token === undefined) continue;
    const exactInteger = /^-?\d+$/.test(token) && Number.isSafeInteger(Number(token));
    if (!exactInteger) {
      out += text.slice(copiedTo, i) + `"${token}"`;
      copiedTo = i + token.length;
    }
    i += token.length - 1;
  }
  return JSON.parse(out + text.slice(copiedTo));
}

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
  url: string;
  user?: string;
  password?: string;
  /** Per-request timeout; default 30 s. */
  timeoutMs?: number;
}

// ---------------------------------------------------------------------------------------------------
// The client

export class BitcoinRpcClient {
  readonly url: string;
  readonly #authorization: string | null;
  readonly #timeoutMs: number;
  #nextId = 1;

  constructor(options: BitcoinRpcClientOptions) {
    const parsed = new URL(options.url);
    const user = options.user ?? decodeURIComponent(parsed.username);
    const password = options.password ?? decodeURIComponent(parsed.password);
    parsed.username = "";
    parsed.password = "";
    this.url = parsed.toString();
    this.#authorization =
      user === "" && password === ""
        ? null
        : `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** Calls any method; the result is parsed losslessly (see the file comment) but not typed. */
  async call(method: string, params: unknown[] = []): Promise<unknown> {
    const id = this.#nextId++;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.#authorization !== null) headers.authorization = this.#authorization;
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: "POST",
        headers,
        body: JSON.stringify({ jsonrpc: "1.0", id, method, params }),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw new BitcoinRpcTransportError(method, reason, null);
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text === "" ? undefined : parseRpcJson(text);
    } catch {
      throw new BitcoinRpcTransportError(method, `reply is not JSON: ${text.slice(0, 200)}`, response.status);
    }
    if (!isRecord(body) || !("result" in body || "error" in body)) {
      throw new BitcoinRpcTransportError(method, `reply is not a JSON-RPC reply`, response.status);
    }
    const error = body.error;
    if (error !== null && error !== undefined) {
      const code = isRecord(error) && typeof error.code === "number" ? error.code : RpcErrorCode.MISC_ERROR;
      const message = isRecord(error) && typeof error.message === "string" ? error.message : String(error);
      throw new BitcoinRpcError(method, code, message);
    }
    return body.result;
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
