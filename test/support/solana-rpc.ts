/**
 * A Solana cluster for RPC-level tests: the project's local chain, or a real `solana-test-validator`
 * named by SOLANA_RPC_URL (with the HTLC programs loaded at the ids the tests use: see
 * docs/solana-localnet.md). Tests of what only the local chain offers (slots on demand) skip on a real one.
 */
import {
  Connection,
  Keypair,
  PublicKey,
  TransactionMessage,
  VersionedTransaction,
  type TransactionInstruction,
} from "@solana/web3.js";
import {
  DEFAULT_NATIVE_HTLC_PROGRAM_ID,
  DEFAULT_SPL_HTLC_PROGRAM_ID,
  LEGACY_NATIVE_HTLC_PROGRAM_ID,
  LEGACY_SPL_HTLC_PROGRAM_ID,
  MINT_SIZE,
  associatedTokenAddress,
  createAssociatedTokenAccountIdempotentInstruction,
} from "../../src/chains/solana/index.js";
import { startLocalSolana, type LocalSolana } from "@htlc-solver/localnet/families/solana/chain/index.js";
import {
  createMintInstructions,
  mintToInstruction,
} from "@htlc-solver/localnet/families/solana/chain/spl-setup.js";

export const REMOTE_SOLANA_URL = process.env.SOLANA_RPC_URL;
export const isRemoteSolana = REMOTE_SOLANA_URL !== undefined && REMOTE_SOLANA_URL !== "";

export interface TestMint {
  mint: PublicKey;
  authority: Keypair;
}

export class SolanaTestCluster {
  readonly connection: Connection;
  readonly nativeId: PublicKey;
  readonly splId: PublicKey;
  /** The legacy programs (local chain only: a remote validator is not expected to have them). */
  readonly legacyNativeId: PublicKey;
  readonly legacySplId: PublicKey;

  private constructor(
    readonly url: string,
    readonly local: LocalSolana | undefined,
    readonly payer: Keypair,
  ) {
    this.connection = new Connection(url, "confirmed");
    this.nativeId =
      local?.programIds.native ?? envKey("SOLANA_NATIVE_HTLC_PROGRAM_ID", DEFAULT_NATIVE_HTLC_PROGRAM_ID);
    this.splId = local?.programIds.spl ?? envKey("SOLANA_SPL_HTLC_PROGRAM_ID", DEFAULT_SPL_HTLC_PROGRAM_ID);
    this.legacyNativeId = local?.programIds.legacyNative ?? LEGACY_NATIVE_HTLC_PROGRAM_ID;
    this.legacySplId = local?.programIds.legacySpl ?? LEGACY_SPL_HTLC_PROGRAM_ID;
  }

  static async start(): Promise<SolanaTestCluster> {
    const local = isRemoteSolana ? undefined : await startLocalSolana({ slotMs: 0 });
    const cluster = new SolanaTestCluster(REMOTE_SOLANA_URL ?? local?.url ?? "", local, Keypair.generate());
    await cluster.fund(cluster.payer.publicKey, 100_000_000_000n);
    return cluster;
  }

  async stop(): Promise<void> {
    await this.local?.stop();
  }

  /** Local: advance slots now. Remote: wait until the validator has produced that many more slots. */
  async advance(slots: bigint): Promise<void> {
    if (this.local !== undefined) {
      this.local.advanceSlots(slots);
      return;
    }
    const target = BigInt(await this.connection.getSlot("processed")) + slots;
    while (BigInt(await this.connection.getSlot("processed")) < target) await sleep(100);
  }

  /** Until the transaction is at least confirmed (polling; the local chain has no WebSocket endpoint). */
  async confirm(signature: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const [status] = (await this.connection.getSignatureStatuses([signature])).value;
      if (status?.confirmationStatus === "confirmed" || status?.confirmationStatus === "finalized") return;
      if (this.local !== undefined && status !== null) this.local.advanceSlots(1n);
      else await sleep(100);
    }
    throw new Error(`transaction ${signature} was not confirmed`);
  }

  async fund(to: PublicKey, lamports: bigint): Promise<void> {
    await this.confirm(await this.connection.requestAirdrop(to, Number(lamports)));
  }

  async newFundedKeypair(lamports = 10_000_000_000n): Promise<Keypair> {
    const keypair = Keypair.generate();
    await this.fund(keypair.publicKey, lamports);
    return keypair;
  }

  /** Signed by the fee payer (the cluster's payer unless given) and the other signers. */
  async transaction(
    instructions: TransactionInstruction[],
    signers: Keypair[] = [],
    feePayer: Keypair = this.payer,
  ): Promise<VersionedTransaction> {
    const { blockhash } = await this.connection.getLatestBlockhash("confirmed");
    const message = new TransactionMessage({
      payerKey: feePayer.publicKey,
      recentBlockhash: blockhash,
      instructions,
    });
    const tx = new VersionedTransaction(message.compileToLegacyMessage());
    tx.sign([feePayer, ...signers]);
    return tx;
  }

  /** Sends with preflight and waits for confirmation; returns the signature. */
  async send(
    instructions: TransactionInstruction[],
    signers: Keypair[] = [],
    feePayer: Keypair = this.payer,
  ): Promise<string> {
    const tx = await this.transaction(instructions, signers, feePayer);
    const signature = await this.connection.sendRawTransaction(tx.serialize());
    await this.confirm(signature);
    return signature;
  }

  async createMint(decimals: number): Promise<TestMint> {
    const mint = Keypair.generate();
    const authority = Keypair.generate();
    const rent = BigInt(await this.connection.getMinimumBalanceForRentExemption(MINT_SIZE));
    await this.send(
      createMintInstructions(this.payer.publicKey, mint.publicKey, authority.publicKey, decimals, rent),
      [mint],
    );
    return { mint: mint.publicKey, authority };
  }

  async mintTo(mint: TestMint, owner: PublicKey, amount: bigint): Promise<PublicKey> {
    const account = associatedTokenAddress(owner, mint.mint);
    const ix = [createAssociatedTokenAccountIdempotentInstruction(this.payer.publicKey, owner, mint.mint)];
    if (amount > 0n) ix.push(mintToInstruction(mint.mint, account, mint.authority.publicKey, amount));
    await this.send(ix, amount > 0n ? [mint.authority] : []);
    return account;
  }
}

function envKey(name: string, fallback: PublicKey): PublicKey {
  const value = process.env[name];
  return value ? new PublicKey(value) : fallback;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
