/**
 * The local Solana virtual machine: litesvm (real SVM, System/SPL Token/ATA programs built in) with the
 * project's HTLC programs loaded, behind an interface in web3.js types and raw transaction bytes. litesvm
 * speaks @solana/kit types; this file is the only place that converts between the two.
 */
import { address, getTransactionDecoder, lamports, type Signature } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from "litesvm";
import { base58Encode } from "./base58.js";
import { htlcProgramBytes, type HtlcProgramName } from "./programs.js";

export interface SvmAccount {
  lamports: bigint;
  data: Uint8Array;
  owner: PublicKey;
  executable: boolean;
}

export type SvmResult = TransactionMetadata | FailedTransactionMetadata;

export interface SimulationResult {
  result: SvmResult;
  /** Accounts as the transaction would leave them (empty for a failed simulation). */
  postAccounts: Map<string, SvmAccount>;
}

export interface LocalSvmOptions {
  /** Where each HTLC program is loaded; a program left out is not loaded. */
  programs: Partial<Record<HtlcProgramName, PublicKey>>;
  /**
   * litesvm accepts only its latest blockhash. The RPC layer turns this off and checks blockhashes itself,
   * with a validity window of recent blocks like a real cluster's.
   */
  blockhashCheck?: boolean;
}

/** Kit addresses by base58: `address()` validates its text, a cost every balance read paid again. */
const addresses = new Map<string, ReturnType<typeof address>>();
const toAddress = (key: PublicKey) => {
  const text = key.toBase58();
  let known = addresses.get(text);
  if (known === undefined) {
    known = address(text);
    addresses.set(text, known);
  }
  return known;
};

export class LocalSvm {
  private readonly svm: LiteSVM;

  constructor(options: LocalSvmOptions) {
    // No transaction history limit beyond litesvm's default; the RPC layer keeps its own records.
    this.svm = new LiteSVM().withBlockhashCheck(options.blockhashCheck ?? true);
    for (const [name, programId] of Object.entries(options.programs) as [HtlcProgramName, PublicKey][]) {
      this.addProgram(programId, htlcProgramBytes(name));
    }
  }

  /** Loads an sBPF program (ELF bytes) at `programId`, as the upgradeable loader would have deployed it. */
  addProgram(programId: PublicKey, elf: Uint8Array): void {
    this.svm.addProgram(toAddress(programId), elf);
  }

  /** Executes a signed wire transaction (legacy or v0) and commits its effects when it succeeds. */
  send(wire: Uint8Array): SvmResult {
    return this.svm.sendTransaction(getTransactionDecoder().decode(wire));
  }

  /** Runs a transaction without committing it; `sigVerify` false accepts missing or stale signatures. */
  simulate(wire: Uint8Array, sigVerify = true): SimulationResult {
    let outcome;
    this.svm.withSigverify(sigVerify);
    try {
      outcome = this.svm.simulateTransaction(getTransactionDecoder().decode(wire));
    } finally {
      this.svm.withSigverify(true);
    }
    if (outcome instanceof FailedTransactionMetadata) return { result: outcome, postAccounts: new Map() };
    const postAccounts = new Map<string, SvmAccount>();
    for (const account of outcome.postAccounts()) {
      postAccounts.set(account.address, {
        lamports: BigInt(account.lamports),
        data: new Uint8Array(account.data),
        owner: new PublicKey(account.programAddress),
        executable: account.executable,
      });
    }
    return { result: outcome.meta(), postAccounts };
  }

  /** The account, or undefined when it does not exist (never created, or closed to zero lamports). */
  account(key: PublicKey): SvmAccount | undefined {
    const found = this.svm.getAccount(toAddress(key));
    if (!found.exists || BigInt(found.lamports) === 0n) return undefined;
    return {
      lamports: BigInt(found.lamports),
      data: new Uint8Array(found.data),
      owner: new PublicKey(found.programAddress),
      executable: found.executable,
    };
  }

  /** Writes an account directly, bypassing the runtime: for setting up tests and local chains only. */
  setAccount(key: PublicKey, account: SvmAccount): void {
    this.svm.setAccount({
      address: toAddress(key),
      lamports: lamports(account.lamports),
      data: account.data,
      programAddress: toAddress(account.owner),
      executable: account.executable,
      space: BigInt(account.data.length),
    });
  }

  /** Every account `owner` owns (litesvm keeps all accounts in memory; this is a full scan). */
  programAccounts(owner: PublicKey): { address: PublicKey; account: SvmAccount }[] {
    return this.svm.getProgramAccounts(toAddress(owner)).map((found) => ({
      address: new PublicKey(found.address),
      account: {
        lamports: BigInt(found.lamports),
        data: new Uint8Array(found.data),
        owner: new PublicKey(found.programAddress),
        executable: found.executable,
      },
    }));
  }

  balance(key: PublicKey): bigint {
    return BigInt(this.svm.getBalance(toAddress(key)) ?? 0n);
  }

  airdrop(key: PublicKey, amount: bigint): SvmResult | null {
    return this.svm.airdrop(toAddress(key), lamports(amount));
  }

  latestBlockhash(): string {
    return this.svm.latestBlockhash();
  }

  /** Moves to a new blockhash; transactions signed over older ones stay valid until the RPC layer says not. */
  expireBlockhash(): void {
    this.svm.expireBlockhash();
  }

  slot(): bigint {
    return this.svm.getClock().slot;
  }

  /** Sets the clock's slot (and nothing else): what the programs read through the Clock sysvar. */
  warpToSlot(slot: bigint): void {
    this.svm.warpToSlot(slot);
  }

  unixTimestamp(): bigint {
    return this.svm.getClock().unixTimestamp;
  }

  setUnixTimestamp(seconds: bigint): void {
    const clock = this.svm.getClock();
    clock.unixTimestamp = seconds;
    this.svm.setClock(clock);
  }

  minimumBalanceForRentExemption(dataLength: bigint): bigint {
    return this.svm.minimumBalanceForRentExemption(dataLength);
  }

  /** litesvm's own record of a transaction it executed (by signature). */
  transaction(signature: Uint8Array): SvmResult | null {
    return this.svm.getTransaction(base58Encode(signature) as Signature);
  }
}
