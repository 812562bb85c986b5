/**
 * The Bitcoin backend over an Esplora REST server (Blockstream's or a self-hosted one), for operators
 * who do not run bitcoind. Esplora indexes addresses itself, so no block following is needed here.
 * Esplora states values as integer satoshis (JSON numbers below 2^53), read exactly.
 */
import { Transaction } from "bitcoinjs-lib";
import { z } from "zod";
import {
  BroadcastRejectedError,
  type AddressActivity,
  type BitcoinBackend,
  type ConfirmedUtxo,
  type FundingOutput,
  type OutputSpend,
  type TxSeen,
} from "./backend.js";

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
const utxo = z.object({ txid: z.string(), vout: z.number().int(), value: sats, status });

type EsploraTx = z.infer<typeof esploraTx>;

/** Esplora serves at most this many confirmed transactions per address page. */
const CHAIN_PAGE_SIZE = 25;

export class EsploraError extends Error {
  constructor(
    readonly path: string,
    readonly status: number | null,
    readonly detail: string,
  ) {
    super(`Esplora ${path} failed${status === null ? "" : ` (HTTP ${status})`}: ${detail}`);
    this.name = "EsploraError";
  }
}

export interface EsploraBackendOptions {
  /** Base URL including any path prefix, e.g. `https://blockstream.info/testnet/api`. */
  url: string;
  timeoutMs?: number;
}

export class EsploraBackend implements BitcoinBackend {
  readonly kind = "esplora" as const;
  readonly #base: string;
  readonly #timeoutMs: number;

  constructor(options: EsploraBackendOptions) {
    this.#base = options.url.replace(/\/+$/, "");
    this.#timeoutMs = options.timeoutMs ?? 15_000;
  }

  async tipHeight(): Promise<number> {
    const text = await this.#request("/blocks/tip/height");
    const height = Number(text.trim());
    if (!Number.isSafeInteger(height))
      throw new EsploraError("/blocks/tip/height", null, `not a height: ${text}`);
    return height;
  }

  async addressActivity(address: string): Promise<AddressActivity> {
    const tipHeight = await this.tipHeight();
    const txs = await this.#addressTxs(address);
    const byTxid = new Map(txs.map((tx) => [tx.txid, tx]));
    const outputs: FundingOutput[] = [];
    for (const tx of txs) {
      const paying = tx.vout.flatMap((out, vout) =>
        out.scriptpubkey_address === address ? [{ out, vout }] : [],
      );
      if (paying.length === 0) continue;
      const spends = await this.#getJson(`/tx/${tx.txid}/outspends`, z.array(outspend));
      for (const { out, vout } of paying) {
        const spentBy = await this.#spendOf(spends[vout], byTxid);
        outputs.push({ txid: tx.txid, vout, value: BigInt(out.value), height: heightOf(tx.status), spentBy });
      }
    }
    return { address, tipHeight, outputs };
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
      return (await this.#request("/tx", { method: "POST", body: rawHex })).trim();
    } catch (error) {
      if (!(error instanceof EsploraError) || error.status === null) throw error;
      if (/already in block ?chain|txn-already-known|txn-already-in-mempool|-27/i.test(error.detail))
        return txid;
      throw new BroadcastRejectedError(txid, error.detail);
    }
  }

  /** Esplora's estimates are sat/vB per confirmation target; the nearest target at or above is used. */
  async feeRateSatVb(targetBlocks: number): Promise<bigint | null> {
    const estimates = await this.#getJson("/fee-estimates", z.record(z.string(), z.number().nonnegative()));
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

  /** Mempool and first confirmed page, then further confirmed pages until a short one. */
  async #addressTxs(address: string): Promise<EsploraTx[]> {
    const all = await this.#getJson(`/address/${address}/txs`, z.array(esploraTx));
    let page = all.filter((tx) => tx.status.confirmed);
    while (page.length >= CHAIN_PAGE_SIZE) {
      const last = page[page.length - 1];
      if (last === undefined) break;
      page = await this.#getJson(`/address/${address}/txs/chain/${last.txid}`, z.array(esploraTx));
      all.push(...page);
    }
    return all;
  }

  async #spendOf(
    spend: z.infer<typeof outspend> | undefined,
    known: Map<string, EsploraTx>,
  ): Promise<OutputSpend | null> {
    if (spend === undefined || !spend.spent || spend.txid === undefined || spend.vin === undefined)
      return null;
    const tx = known.get(spend.txid) ?? (await this.#getJson(`/tx/${spend.txid}`, esploraTx));
    const witness = tx.vin[spend.vin]?.witness ?? [];
    return { txid: spend.txid, vin: spend.vin, height: heightOf(spend.status ?? tx.status), witness };
  }

  async #getJson<T>(path: string, schema: z.ZodType<T>): Promise<T> {
    const text = await this.#request(path);
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

  async #request(path: string, init: { method?: string; body?: string } = {}): Promise<string> {
    let response: Response;
    try {
      response = await fetch(`${this.#base}${path}`, {
        method: init.method ?? "GET",
        ...(init.body === undefined ? {} : { body: init.body, headers: { "content-type": "text/plain" } }),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      throw new EsploraError(path, null, error instanceof Error ? error.message : String(error));
    }
    const text = await response.text();
    if (!response.ok) throw new EsploraError(path, response.status, text.slice(0, 500));
    return text;
  }
}

function heightOf(s: { confirmed: boolean; block_height?: number | undefined }): number | null {
  return s.confirmed && s.block_height !== undefined ? s.block_height : null;
}
