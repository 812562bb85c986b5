/**
 * What one read of an address's activity may cost an Esplora server and the solver. Anyone can pay an
 * HTLC address any number of outputs in any number of transactions, and without bounds a read would
 * follow every page and every spend of them. A read that reaches a bound fails, naming it: part of an
 * address's history taken as the whole of it could leave out the locks that count (htlc-locks.ts).
 */
import { EsploraLimitError } from "./esplora-endpoint.js";

export interface EsploraReadLimits {
  /** Pages of an address's confirmed transactions (25 each) followed after the first answer. */
  maxPages: number;
  /** Bytes of one reply. */
  maxReplyBytes: number;
  /** Bytes of all the replies one read of an address takes together. */
  maxReadBytes: number;
}

/**
 * An HTLC address holds a handful of transactions (a deposit, a redeem or refund); forty pages are a
 * thousand. A page of 25 large transactions stays far below 4 MiB.
 */
export const DEFAULT_ESPLORA_READ_LIMITS: EsploraReadLimits = {
  maxPages: 40,
  maxReplyBytes: 4 * 1024 * 1024,
  maxReadBytes: 32 * 1024 * 1024,
};

/** The pages and bytes one read of `address` has taken so far; throws once it would take more. */
export class EsploraReadBudget {
  #pages = 0;
  #bytes = 0;

  constructor(
    private readonly limits: EsploraReadLimits,
    private readonly address: string,
  ) {}

  /** Before following one more page of the address's confirmed transactions. */
  nextPage(path: string): void {
    this.#pages += 1;
    if (this.#pages <= this.limits.maxPages) return;
    throw new EsploraLimitError(
      path,
      `address ${this.address} has more transactions than the ${this.limits.maxPages} pages the solver ` +
        "reads of one address; its history is not taken in part",
    );
  }

  /** After a reply of this read. */
  charge(path: string, text: string): void {
    this.#bytes += Buffer.byteLength(text, "utf8");
    if (this.#bytes <= this.limits.maxReadBytes) return;
    throw new EsploraLimitError(
      path,
      `reading address ${this.address} took more than the ${this.limits.maxReadBytes} bytes the solver ` +
        "reads for one address; its history is not taken in part",
    );
  }
}
