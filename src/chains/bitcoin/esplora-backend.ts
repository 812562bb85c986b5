/**
 * The Bitcoin backend over an Esplora REST server (Blockstream's or a self-hosted one), for operators
 * who do not run bitcoind. Esplora indexes addresses itself, so no block following is needed here.
 * Esplora states values as integer satoshis (JSON numbers below 2^53), read exactly.
 *
 * Several servers of one chain may be given; they are used as one through an endpoint pool: reads fail
 * over and skip a server whose tip is behind, a broadcast goes to every server, and the requests behind
 * one address's activity are all sent to one server so that they agree. What one read of an address may
 * take is bounded (esplora-read-budget.ts).
 */
import { Transaction } from "bitcoinjs-lib";
import type { Logger } from "pino";
import { z } from "zod";
import type { HtlcReadOptions } from "../chain.js";
import { endpointLabels } from "../rpc/endpoint-labels.js";
import { EndpointPool, type EndpointPoolOptions } from "../rpc/endpoint-pool.js";
import { RpcUnavailableError } from "../rpc/errors.js";
import type { HeadReading } from "../rpc/head-age.js";
import {
  broadcastRejection,
  type AddressActivity,
  type BitcoinBackend,
  type ConfirmedUtxo,
  type FundingOutput,
  type MempoolDescendants,
  type OutputSpend,
  type TxSeen,
} from "./backend.js";
import { EsploraEndpoint, EsploraError, EsploraLimitError } from "./esplora-endpoint.js";
import {
  DEFAULT_ESPLORA_READ_LIMITS,
  EsploraReadBudget,
  type EsploraReadLimits,
} from "./esplora-read-budget.js";
import { vsizeOfWeight } from "./tx-size.js";

export { EsploraError, EsploraLimitError };

const sats = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const status = z.object({ confirmed: z.boolean(), block_height: z.number().int().optional() });
const esploraTx = z.object({
  txid: z.string(),
  vin: z.array(
    z.object({
      txid: z.string(),
      vout: z.number().int(),
      witness: z.array(z.string()).optional(),
      is_coinbase: z.boolean().optional(),
    }),
  ),
  vout: z.array(
    z.object({ scriptpubkey: z.string(), scriptpubkey_address: z.string().optional(), value: sats }),
  ),
  status,
});
const outspend = z.object({
  spent: z.boolean(),
  txid: z.string().optional(),
  vin: z.number().int().optional(),
  status: status.optional(),
});
/** The fee and weight Esplora states for a transaction (`GET /tx/:txid`). */
const txCost = z.object({ fee: sats, weight: z.number().int().positive() });
const utxo = z.object({ txid: z.string(), vout: z.number().int(), value: sats, status });

type EsploraTx = z.infer<typeof esploraTx>;

/** Esplora serves at most this many confirmed transactions per address page. */
const CHAIN_PAGE_SIZE = 25;

/**
 * Descendants walked at most: Bitcoin Core refuses a replacement that would evict more than 100
 * transactions, so a longer walk could not change what a replacement must pay.
 */
const MAX_DESCENDANTS = 100;

/** The newest blocks, the tip first: its height and times in one request. */
const TIP_PATH = "/blocks";
const tipBlocks = z
  .array(
    z.object({
      height: z.number().int().nonnegative(),
      timestamp: z.number().int(),
      mediantime: z.number().int().optional(),
    }),
  )
  .min(1);
const ALREADY_KNOWN = /already in block ?chain|txn-already-known|txn-already-in-mempool|-27/i;

function isAlreadyKnown(error: unknown): boolean {
  return error instanceof EsploraError && error.status !== null && ALREADY_KNOWN.test(error.detail);
}

/**
 * The tip of a `/blocks` answer, timed by its median time past as over bitcoind (rpc.ts); by its own
 * time on a server that does not give the median.
 */
function parseTip(text: string): HeadReading {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new EsploraError(TIP_PATH, null, `reply is not JSON: ${text.slice(0, 200)}`);
  }
  const blocks = tipBlocks.safeParse(parsed);
  if (!blocks.success)
    throw new EsploraError(TIP_PATH, null, `unexpected reply shape: ${blocks.error.message}`);
  const [tip] = blocks.data;
  if (tip === undefined) throw new EsploraError(TIP_PATH, null, "no blocks");
  return { height: tip.height, timeMs: (tip.mediantime ?? tip.timestamp) * 1000 };
}

export interface EsploraBackendOptions {
  /** Base URL including any path prefix, e.g. `https://blockstream.info/testnet/api`. */
  url?: string;
  /** Several servers of the same chain, used as one; with `url`, it comes first. */
  urls?: string[];
  timeoutMs?: number;
  /** Chain name in errors and logs; default `bitcoin`. */
  chain?: string;
  /** A server whose tip lags the best by more than this is not read from; default 1. */
  maxHeadLagBlocks?: number;
  /** A tip whose median time past is older than this is stale (see tipHeight); default: not judged. */
  maxHeadAgeMs?: number;
  /** How often tips are compared, at most; default 30 s. */
  headRefreshMs?: number;
  logger?: Logger;
  /** Pool settings beyond the above (tests shorten waits with these). */
  pool?: Partial<EndpointPoolOptions<EsploraEndpoint>>;
  /** Bounds of one read of an address; DEFAULT_ESPLORA_READ_LIMITS where not given. */
  limits?: Partial<EsploraReadLimits>;
}

function endpointsOf(options: EsploraBackendOptions, maxReplyBytes: number): EsploraEndpoint[] {
  const urls = [...(options.url === undefined ? [] : [options.url]), ...(options.urls ?? [])];
  if (urls.length === 0) throw new Error("EsploraBackend needs a url or urls");
  const labels = endpointLabels(urls);
  const timeoutMs = options.timeoutMs ?? 15_000;
  return urls.map(
    (url, i) => new EsploraEndpoint({ url, label: labels[i] ?? url, timeoutMs, maxReplyBytes }),
  );
}

export class EsploraBackend implements BitcoinBackend {
  readonly kind = "esplora" as const;
  readonly pool: EndpointPool<EsploraEndpoint>;
  readonly #limits: EsploraReadLimits;
  readonly #logger: Logger | undefined;

  constructor(options: EsploraBackendOptions) {
    this.#limits = { ...DEFAULT_ESPLORA_READ_LIMITS, ...options.limits };
    this.#logger = options.logger;
    this.pool = new EndpointPool<EsploraEndpoint>({
      chain: options.chain ?? "bitcoin",
      endpoints: endpointsOf(options, this.#limits.maxReplyBytes),
      readHead: async (e) => parseTip(await e.request(TIP_PATH)),
      maxHeadLagBlocks: options.maxHeadLagBlocks ?? 1,
      ...(options.maxHeadAgeMs === undefined ? {} : { maxHeadAgeMs: options.maxHeadAgeMs }),
      headRefreshMs: options.headRefreshMs ?? 30_000,
      timeoutMs: options.timeoutMs ?? 15_000,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...options.pool,
    });
  }

  /** The tip of a server whose tip is not stale (EndpointPool.freshHead). */
  async tipHeight(): Promise<number> {
    try {
      return (await this.pool.freshHead(TIP_PATH)).height;
    } catch (error) {
      if (error instanceof RpcUnavailableError) throw new EsploraError(TIP_PATH, null, error.message, error);
      throw error;
    }
  }

  /**
   * Tip, transactions and their spends from one server, so that they describe the same chain. The locks
   * the solver knows of are read one by one besides (its own transactions whole, `ownTxids`; others by
   * output, `lockIds`): an address flooded past the read's bounds, or with more unconfirmed payments than
   * a server lists, still shows them and their spends, and then nothing else.
   */
  addressActivity(address: string, options: HtlcReadOptions = {}): Promise<AddressActivity> {
    const known = knownLocks(options);
    return this.#sticky("address activity", () => this.#addressActivity(address, known));
  }

  async #addressActivity(address: string, known: KnownLocks): Promise<AddressActivity> {
    const tipHeight = await this.tipHeight();
    let outputs: FundingOutput[];
    try {
      outputs = await this.#addressOutputs(address);
    } catch (error) {
      if (!(error instanceof EsploraLimitError) || known.size === 0) throw error;
      this.#logger?.warn(
        { address, knownTxids: [...known.keys()], err: error },
        "address flooded past the read bounds: only the locks the solver knows of are read",
      );
      outputs = [];
    }
    const listed = new Set(outputs.map((output) => output.txid));
    for (const [txid, vouts] of known) {
      if (!listed.has(txid)) outputs.push(...(await this.#outputsOfTx(txid, vouts, address)));
    }
    return { address, tipHeight, outputs };
  }

  /** Every output paying the address, with its spend, within one read's bounds (esplora-read-budget.ts). */
  async #addressOutputs(address: string): Promise<FundingOutput[]> {
    const budget = new EsploraReadBudget(this.#limits, address);
    const txs = await this.#addressTxs(address, budget);
    const byTxid = new Map(txs.map((tx) => [tx.txid, tx]));
    const outputs: FundingOutput[] = [];
    for (const tx of txs) outputs.push(...(await this.#payingOutputs(tx, address, byTxid, budget)));
    return outputs;
  }

  /**
   * The outputs of one known transaction that pay the address (all, or only the given ones: a user's
   * deposit may pay the address thousands of outputs, each spent apart); none when no server has it.
   */
  async #outputsOfTx(
    txid: string,
    vouts: ReadonlySet<number> | "all",
    address: string,
  ): Promise<FundingOutput[]> {
    const budget = new EsploraReadBudget(this.#limits, address);
    let tx: EsploraTx;
    try {
      tx = await this.#getJson(`/tx/${txid}`, esploraTx, { budget });
    } catch (error) {
      if (error instanceof EsploraError && error.status === 404) return [];
      throw error;
    }
    // A transaction never spends its own outputs: no transaction read so far can be a spend of them.
    const noneRead = new Map<string, EsploraTx>();
    if (vouts === "all") return this.#payingOutputs(tx, address, noneRead, budget);
    const outputs: FundingOutput[] = [];
    for (const vout of vouts) {
      const out = tx.vout[vout];
      if (out?.scriptpubkey_address !== address) continue;
      const spend = await this.#getJson(`/tx/${txid}/outspend/${vout}`, outspend, { budget });
      const spentBy = await this.#spendOf(spend, noneRead, budget);
      outputs.push({ txid, vout, value: BigInt(out.value), height: heightOf(tx.status), spentBy });
    }
    return outputs;
  }

  async #payingOutputs(
    tx: EsploraTx,
    address: string,
    known: Map<string, EsploraTx>,
    budget: EsploraReadBudget,
  ): Promise<FundingOutput[]> {
    const paying = tx.vout.flatMap((out, vout) =>
      out.scriptpubkey_address === address ? [{ out, vout }] : [],
    );
    if (paying.length === 0) return [];
    const spends = await this.#getJson(`/tx/${tx.txid}/outspends`, z.array(outspend), { budget });
    const outputs: FundingOutput[] = [];
    for (const { out, vout } of paying) {
      const spentBy = await this.#spendOf(spends[vout], known, budget);
      outputs.push({ txid: tx.txid, vout, value: BigInt(out.value), height: heightOf(tx.status), spentBy });
    }
    return outputs;
  }

  async confirmedUnspent(address: string): Promise<ConfirmedUtxo[]> {
    const utxos = await this.#getJson(`/address/${address}/utxo`, z.array(utxo));
    return utxos.flatMap((u) =>
      u.status.confirmed && u.status.block_height !== undefined
        ? [{ txid: u.txid, vout: u.vout, value: BigInt(u.value), height: u.status.block_height }]
        : [],
    );
  }

  async broadcast(rawHex: string): Promise<string> {
    const txid = Transaction.fromHex(rawHex).getId();
    try {
      const sent = await this.pool.broadcast(
        "/tx",
        (e) => e.request("/tx", { method: "POST", body: rawHex }),
        { preferAnswer: isAlreadyKnown },
      );
      return sent.trim();
    } catch (error) {
      if (error instanceof RpcUnavailableError) throw new EsploraError("/tx", null, error.message, error);
      if (!(error instanceof EsploraError) || error.status === null) throw error;
      if (isAlreadyKnown(error)) return txid;
      throw broadcastRejection(txid, error.detail);
    }
  }

  /** Esplora's estimates are sat/vB per confirmation target; the nearest target at or above is used. */
  async feeRateSatVb(targetBlocks: number): Promise<bigint | null> {
    const estimates = await this.#getJson(
      "/fee-estimates",
      z.record(z.string(), z.number().nonnegative()),
      // Estimates do not depend on the last block: a server that is behind may answer.
      { current: false },
    );
    const targets = Object.keys(estimates)
      .map(Number)
      .filter((t) => Number.isInteger(t))
      .sort((a, b) => a - b);
    const target = targets.find((t) => t >= targetBlocks) ?? targets[targets.length - 1];
    const rate = target === undefined ? undefined : estimates[String(target)];
    return rate === undefined ? null : BigInt(Math.ceil(rate));
  }

  async transactionStatus(txid: string): Promise<TxSeen> {
    let seen: z.infer<typeof status>;
    try {
      seen = await this.#getJson(`/tx/${txid}/status`, status);
    } catch (error) {
      if (error instanceof EsploraError && error.status === 404) return { state: "unknown" };
      throw error;
    }
    if (!seen.confirmed) return { state: "mempool" };
    if (seen.block_height === undefined)
      throw new EsploraError(`/tx/${txid}/status`, null, "confirmed without height");
    return { state: "confirmed", height: seen.block_height };
  }

  /** Esplora has no descendant index: the unconfirmed spends of each output are followed, one server throughout. */
  mempoolDescendants(txid: string): Promise<MempoolDescendants | null> {
    return this.#sticky("mempool descendants", () => this.#mempoolDescendants(txid));
  }

  async #mempoolDescendants(txid: string): Promise<MempoolDescendants | null> {
    if ((await this.transactionStatus(txid)).state !== "mempool") return null;
    const found = new Set<string>();
    const queue = [txid];
    const total = { count: 0, vsize: 0, feeSats: 0n };
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      for (const spend of await this.#getJson(`/tx/${next}/outspends`, z.array(outspend))) {
        const child = spend.txid;
        if (!spend.spent || child === undefined || spend.status?.confirmed === true || found.has(child))
          continue;
        if (found.size >= MAX_DESCENDANTS) return total;
        found.add(child);
        const cost = await this.#getJson(`/tx/${child}`, txCost);
        total.count++;
        total.vsize += vsizeOfWeight(cost.weight);
        total.feeSats += BigInt(cost.fee);
        queue.push(child);
      }
    }
    return total;
  }

  /** Mempool and first confirmed page, then further confirmed pages until a short one, within the budget. */
  async #addressTxs(address: string, budget: EsploraReadBudget): Promise<EsploraTx[]> {
    const all = await this.#getJson(`/address/${address}/txs`, z.array(esploraTx), { budget });
    let page = all.filter((tx) => tx.status.confirmed);
    while (page.length >= CHAIN_PAGE_SIZE) {
      const last = page[page.length - 1];
      if (last === undefined) break;
      const path = `/address/${address}/txs/chain/${last.txid}`;
      budget.nextPage(path);
      page = await this.#getJson(path, z.array(esploraTx), { budget });
      all.push(...page);
    }
    return all;
  }

  async #spendOf(
    spend: z.infer<typeof outspend> | undefined,
    known: Map<string, EsploraTx>,
    budget: EsploraReadBudget,
  ): Promise<OutputSpend | null> {
    if (spend === undefined || !spend.spent || spend.txid === undefined || spend.vin === undefined)
      return null;
    const tx = known.get(spend.txid) ?? (await this.#getJson(`/tx/${spend.txid}`, esploraTx, { budget }));
    const witness = tx.vin[spend.vin]?.witness ?? [];
    return { txid: spend.txid, vin: spend.vin, height: heightOf(spend.status ?? tx.status), witness };
  }

  /** A JSON reply of the schema's shape; with a `budget`, charged to that read of an address. */
  async #getJson<T>(
    path: string,
    schema: z.ZodType<T>,
    options: { current?: boolean; budget?: EsploraReadBudget } = {},
  ): Promise<T> {
    const text = await this.#read(path, (e) => e.request(path), { current: options.current ?? true });
    options.budget?.charge(path, text);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new EsploraError(path, null, `reply is not JSON: ${text.slice(0, 200)}`);
    }
    const result = schema.safeParse(parsed);
    if (!result.success)
      throw new EsploraError(path, null, `unexpected reply shape: ${result.error.message}`);
    return result.data;
  }

  /** A read through the pool; when no server answered, an EsploraError without status names the path. */
  async #read<T>(
    path: string,
    call: (e: EsploraEndpoint) => Promise<T>,
    options = { current: true },
  ): Promise<T> {
    try {
      return await this.pool.read(path, call, options);
    } catch (error) {
      if (error instanceof RpcUnavailableError) throw new EsploraError(path, null, error.message, error);
      throw error;
    }
  }

  async #sticky<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await this.pool.sticky(what, fn);
    } catch (error) {
      if (error instanceof RpcUnavailableError) throw new EsploraError(what, null, error.message, error);
      throw error;
    }
  }
}

/** Known locks by transaction: the solver's own transactions whole, others' by output. */
type KnownLocks = Map<string, ReadonlySet<number> | "all">;

const LOCK_ID = /^([0-9a-f]{64}):(\d+)$/;

function knownLocks(options: HtlcReadOptions): KnownLocks {
  const known: KnownLocks = new Map();
  for (const txid of options.ownTxids ?? []) known.set(txid, "all");
  for (const id of options.lockIds ?? []) {
    const match = LOCK_ID.exec(id);
    // A lock id of another shape names no Bitcoin output: nothing to read for it.
    if (match === null) continue;
    const [, txid = "", vout = "0"] = match;
    const vouts = known.get(txid);
    if (vouts === "all") continue;
    known.set(txid, new Set([...(vouts ?? []), Number(vout)]));
  }
  return known;
}

function heightOf(s: { confirmed: boolean; block_height?: number | undefined }): number | null {
  return s.confirmed && s.block_height !== undefined ? s.block_height : null;
}
