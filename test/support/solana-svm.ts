/**
 * litesvm with the project's HTLC programs at the live program ids, and helpers that send real
 * transactions and report what the runtime said (custom error number, logs, compute units).
 */
import type { PublicKey } from "@solana/web3.js";
import { Keypair, Transaction, type TransactionInstruction } from "@solana/web3.js";
import { FailedTransactionMetadata } from "litesvm";
import { createHash, randomBytes } from "node:crypto";
import { expect } from "vitest";
import {
  DEFAULT_NATIVE_HTLC_PROGRAM_ID,
  DEFAULT_SPL_HTLC_PROGRAM_ID,
  LEGACY_NATIVE_HTLC_PROGRAM_ID,
  LEGACY_SPL_HTLC_PROGRAM_ID,
  associatedTokenAddress,
  createAssociatedTokenAccountIdempotentInstruction,
  decodeTokenAccount,
  type SwapTerms,
} from "../../src/chains/solana/index.js";
import { LocalSvm, type SvmResult } from "@htlc-solver/localnet/families/solana/chain/svm.js";
import { customErrorCode, resultError } from "@htlc-solver/localnet/families/solana/chain/tx-error.js";
import {
  createMintInstructions,
  mintToInstruction,
} from "@htlc-solver/localnet/families/solana/chain/spl-setup.js";

export const LAMPORTS_PER_SOL = 1_000_000_000n;

export interface SendResult {
  ok: boolean;
  /** The custom error number of a failed instruction (InstructionError(_, Custom(n))). */
  customCode?: number;
  /** The runtime's error text for any failure. */
  error?: string;
  logs: string[];
  computeUnits: bigint;
}

export class SvmHarness {
  readonly nativeId = DEFAULT_NATIVE_HTLC_PROGRAM_ID;
  readonly splId = DEFAULT_SPL_HTLC_PROGRAM_ID;
  /** The legacy programs at the ids the service's SDK names for them. */
  readonly legacyNativeId = LEGACY_NATIVE_HTLC_PROGRAM_ID;
  readonly legacySplId = LEGACY_SPL_HTLC_PROGRAM_ID;
  readonly svm = new LocalSvm({
    programs: {
      native_swaps: this.nativeId,
      spl_swaps: this.splId,
      legacy_native_swaps: this.legacyNativeId,
      legacy_spl_swaps: this.legacySplId,
    },
  });
  /** Pays every fee, so the balances of the parties move only by what the programs do. */
  readonly feePayer: Keypair;

  constructor() {
    this.feePayer = this.fund(100n * LAMPORTS_PER_SOL);
  }

  fund(lamports: bigint): Keypair {
    const keypair = Keypair.generate();
    if (lamports > 0n) this.svm.airdrop(keypair.publicKey, lamports);
    return keypair;
  }

  send(instructions: TransactionInstruction[], signers: Keypair[] = []): SendResult {
    const tx = new Transaction().add(...instructions);
    tx.feePayer = this.feePayer.publicKey;
    tx.recentBlockhash = this.svm.latestBlockhash();
    tx.sign(this.feePayer, ...signers);
    const result = this.svm.send(tx.serialize());
    // A fresh blockhash for the next transaction: the same instructions sent twice (a second redeem) must
    // reach the program instead of being refused as already processed.
    this.svm.expireBlockhash();
    return describe(result);
  }

  balance(address: PublicKey): bigint {
    return this.svm.balance(address);
  }

  slot(): bigint {
    return this.svm.slot();
  }

  warpTo(slot: bigint): void {
    this.svm.warpToSlot(slot);
  }

  createMint(decimals = 6): { mint: PublicKey; authority: Keypair } {
    const mint = Keypair.generate();
    const authority = this.fund(LAMPORTS_PER_SOL);
    const rent = this.svm.minimumBalanceForRentExemption(82n);
    const result = this.send(
      createMintInstructions(this.feePayer.publicKey, mint.publicKey, authority.publicKey, decimals, rent),
      [mint],
    );
    if (!result.ok) throw new Error(`mint creation failed: ${result.error}`);
    return { mint: mint.publicKey, authority };
  }

  /** The owner's associated token account, created if needed, with `amount` minted into it. */
  tokenAccount(owner: PublicKey, mint: { mint: PublicKey; authority: Keypair }, amount = 0n): PublicKey {
    const ix = [createAssociatedTokenAccountIdempotentInstruction(this.feePayer.publicKey, owner, mint.mint)];
    const address = associatedTokenAddress(owner, mint.mint);
    if (amount > 0n) ix.push(mintToInstruction(mint.mint, address, mint.authority.publicKey, amount));
    const result = this.send(ix, amount > 0n ? [mint.authority] : []);
    if (!result.ok) throw new Error(`token account setup failed: ${result.error}`);
    return address;
  }

  tokenBalance(account: PublicKey): bigint {
    const info = this.svm.account(account);
    return info === undefined ? 0n : decodeTokenAccount(info.data).amount;
  }

  accountData(address: PublicKey): Uint8Array | undefined {
    return this.svm.account(address)?.data;
  }
}

function describe(result: SvmResult): SendResult {
  if (result instanceof FailedTransactionMetadata) {
    const meta = result.meta();
    const err = resultError(result);
    const customCode = customErrorCode(err);
    return {
      ok: false,
      error: JSON.stringify(err),
      ...(customCode !== undefined ? { customCode } : {}),
      logs: meta.logs(),
      computeUnits: meta.computeUnitsConsumed(),
    };
  }
  return { ok: true, logs: result.logs(), computeUnits: result.computeUnitsConsumed() };
}

/** Asserts a failure with this custom program error number (logs in the message when it is not). */
export function expectCustomError(result: SendResult, code: number): void {
  expect(result.ok, result.logs.join("\n")).toBe(false);
  expect(result.customCode, `${result.error}\n${result.logs.join("\n")}`).toBe(code);
}

/** A copy of an instruction with one account meta changed: the attacker's view of the same call. */
export function withAccount(
  ix: TransactionInstruction,
  index: number,
  change: Partial<TransactionInstruction["keys"][number]>,
): TransactionInstruction {
  return {
    ...ix,
    keys: ix.keys.map((k, i) => (i === index ? { ...k, ...change } : k)),
  } as TransactionInstruction;
}

export function newSecret(): { secret: Uint8Array; secretHash: Uint8Array } {
  const secret = new Uint8Array(randomBytes(32));
  return { secret, secretHash: new Uint8Array(createHash("sha256").update(secret).digest()) };
}

export function newTerms(overrides: Partial<SwapTerms> = {}): SwapTerms & { secret: Uint8Array } {
  const { secret, secretHash } = newSecret();
  return {
    redeemer: Keypair.generate().publicKey,
    refundee: Keypair.generate().publicKey,
    secretHash,
    swapAmount: 250_000_000n,
    timelock: 100n,
    secret,
    ...overrides,
  };
}

/** Compute units measured per program instruction, printed once at the end of a test file. */
export class ComputeUnitLog {
  private readonly units = new Map<string, bigint>();

  record(label: string, result: SendResult): void {
    if (!result.ok) throw new Error(`${label} failed: ${result.error}\n${result.logs.join("\n")}`);
    const consumed = programUnits(result.logs);
    this.units.set(label, consumed ?? result.computeUnits);
  }

  print(title: string): void {
    const rows = [...this.units].map(([label, cu]) => `  ${label.padEnd(36)} ${cu} CU`);
    console.log(`${title}\n${rows.join("\n")}`);
  }

  get(label: string): bigint | undefined {
    return this.units.get(label);
  }
}

/** Units of the outermost HTLC invocation, from "Program <id> consumed N of M compute units". */
function programUnits(logs: string[]): bigint | undefined {
  const ids = [
    DEFAULT_NATIVE_HTLC_PROGRAM_ID,
    DEFAULT_SPL_HTLC_PROGRAM_ID,
    LEGACY_NATIVE_HTLC_PROGRAM_ID,
    LEGACY_SPL_HTLC_PROGRAM_ID,
  ].map((id) => id.toBase58());
  for (const line of logs) {
    const m = /^Program (\w+) consumed (\d+) of \d+ compute units$/.exec(line);
    if (m?.[1] !== undefined && m[2] !== undefined && ids.includes(m[1])) return BigInt(m[2]);
  }
  return undefined;
}
