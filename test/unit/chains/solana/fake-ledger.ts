/**
 * A ledger of one address's transactions for the Solana history readers: signatures newest first with
 * `before` / `until` paging as a node answers them, transactions in the RPC's JSON shape built from real
 * instructions, and a count of every read, so a test can say how much work a reader did.
 */
import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import { base58Encode } from "../../../../src/chains/solana/base58.js";
import type { SolanaRpc } from "../../../../src/chains/solana/rpc.js";
import type { SignatureInfo, TransactionAnswer } from "../../../../src/chains/solana/rpc-schemas.js";

export interface LedgerEntry {
  signature: string;
  slot: bigint;
  failed: boolean;
  tx: TransactionAnswer;
}

/** The JSON-encoded transaction a node returns for these instructions (and these inner ones, by index). */
export function transactionOf(
  signature: string,
  slot: bigint,
  instructions: TransactionInstruction[],
  options: { inner?: { index: number; instructions: TransactionInstruction[] }[]; failed?: boolean } = {},
): TransactionAnswer {
  const keys: string[] = [];
  const indexOf = (key: PublicKey): number => {
    const text = key.toBase58();
    let at = keys.indexOf(text);
    if (at < 0) at = keys.push(text) - 1;
    return at;
  };
  const compile = (ix: TransactionInstruction) => ({
    programIdIndex: indexOf(ix.programId),
    accounts: ix.keys.map((k) => indexOf(k.pubkey)),
    data: base58Encode(new Uint8Array(ix.data)),
  });
  const compiled = instructions.map(compile);
  const inner = (options.inner ?? []).map((entry) => ({
    index: entry.index,
    instructions: entry.instructions.map(compile),
  }));
  return {
    slot,
    blockTime: 1_700_000_000 + Number(slot),
    transaction: { signatures: [signature], message: { accountKeys: keys, instructions: compiled } },
    meta: {
      err: options.failed ? { InstructionError: [0, { Custom: 1 }] } : null,
      fee: 5000n,
      logMessages: [],
      innerInstructions: inner,
      loadedAddresses: { writable: [], readonly: [] },
    },
  };
}

export class FakeLedger {
  /** Oldest first. */
  readonly entries: LedgerEntry[] = [];
  readonly #bySignature = new Map<string, LedgerEntry>();
  listings = 0;
  fetches = 0;
  readonly fetched: string[] = [];
  /** Listings show nothing above this slot (a node whose index lags); null: everything. */
  listingLagSlot: bigint | null = null;

  add(entry: Omit<LedgerEntry, "failed"> & { failed?: boolean }): void {
    const full = { failed: false, ...entry };
    this.entries.push(full);
    this.#bySignature.set(full.signature, full);
  }

  /** A transaction that names the address and does nothing to it (memo-like spam). */
  spam(count: number, slot: bigint, options: { failed?: boolean; prefix?: string } = {}): void {
    const prefix = options.prefix ?? "spam";
    const start = this.entries.length;
    for (let i = 0; i < count; i++) {
      const signature = `${prefix}-${start + i}`;
      const tx = transactionOf(signature, slot, [], { failed: options.failed ?? false });
      this.add({ signature, slot, tx, failed: options.failed ?? false });
    }
  }

  get rpc(): SolanaRpc {
    const fake = {
      getSignaturesForAddress: (
        _address: PublicKey,
        options: { limit: number; before?: string; until?: string },
      ): Promise<SignatureInfo[]> => Promise.resolve(this.#list(options)),
      getTransaction: (signature: string): Promise<TransactionAnswer | null> => {
        this.fetches++;
        this.fetched.push(signature);
        return Promise.resolve(this.#bySignature.get(signature)?.tx ?? null);
      },
    };
    return fake as unknown as SolanaRpc;
  }

  #list(options: { limit: number; before?: string; until?: string }): SignatureInfo[] {
    this.listings++;
    let list = this.entries
      .filter((e) => this.listingLagSlot === null || e.slot <= this.listingLagSlot)
      .reverse();
    if (options.before !== undefined) {
      const at = list.findIndex((e) => e.signature === options.before);
      list = at < 0 ? [] : list.slice(at + 1);
    }
    if (options.until !== undefined) {
      const at = list.findIndex((e) => e.signature === options.until);
      if (at >= 0) list = list.slice(0, at);
    }
    return list.slice(0, options.limit).map((e) => ({
      signature: e.signature,
      slot: e.slot,
      err: e.failed ? { InstructionError: [0, { Custom: 1 }] } : null,
      blockTime: null,
      confirmationStatus: "confirmed" as const,
    }));
  }
}
