/**
 * The local Solana chain for tests and the localnet: litesvm with the project's HTLC programs (both
 * versions, each at its own ids, so one chain serves current and legacy swaps) behind a
 * JSON-RPC server, slots advancing on an interval (like anvil's blocks), and helpers that fund accounts
 * and mint SPL tokens with real transactions.
 */
import {
  Keypair,
  TransactionMessage,
  VersionedTransaction,
  type PublicKey,
  type TransactionInstruction,
} from "@solana/web3.js";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import {
  DEFAULT_NATIVE_HTLC_PROGRAM_ID,
  DEFAULT_SPL_HTLC_PROGRAM_ID,
  LEGACY_NATIVE_HTLC_PROGRAM_ID,
  LEGACY_SPL_HTLC_PROGRAM_ID,
} from "htlc-solver/chains/solana/program-ids.js";
import {
  MINT_SIZE,
  associatedTokenAddress,
  createAssociatedTokenAccountIdempotentInstruction,
} from "htlc-solver/chains/solana/spl-token.js";
import { LocalSolanaChain } from "./chain.js";
import { createSolanaRpcServer } from "./rpc-server.js";
import { listen } from "htlc-solver/util/listen.js";
import { createMintInstructions, mintToInstruction } from "./spl-setup.js";

export { LocalSolanaChain, BLOCKHASH_VALIDITY_BLOCKS, FINALIZATION_DEPTH } from "./chain.js";
export type { Commitment, TransactionRecord } from "./chain.js";
export { SOLANA_RPC_METHODS } from "./rpc-server.js";

export interface StartLocalSolanaOptions {
  /** TCP port on 127.0.0.1; a free one when omitted. */
  port?: number;
  /** Milliseconds per slot (default 400, a real cluster's pace); 0 advances slots only on demand. */
  slotMs?: number;
  /** Where the HTLC programs are loaded (defaults: the live program ids of each version). */
  programIds?: Partial<LocalSolanaProgramIds>;
  logger?: Logger;
}

export interface LocalSolanaProgramIds {
  native: PublicKey;
  spl: PublicKey;
  legacyNative: PublicKey;
  legacySpl: PublicKey;
}

export interface LocalMint {
  mint: PublicKey;
  authority: Keypair;
  decimals: number;
}

export interface LocalSolana {
  url: string;
  chain: LocalSolanaChain;
  programIds: LocalSolanaProgramIds;
  /** Moves the chain on by `count` slots now (on top of the interval). */
  advanceSlots(count?: bigint): void;
  /**
   * Stops the interval's slots (true) or lets them run again (false), like anvil's interval mining
   * switched off and on: a test holds a transaction at a chosen depth. `advanceSlots` still moves on.
   */
  holdSlots(held: boolean): void;
  /** Sends lamports from the faucet; returns the transfer's signature. */
  fund(to: PublicKey, lamports: bigint): string;
  createMint(decimals: number): LocalMint;
  /** Mints into the owner's associated token account (created when missing) and returns that account. */
  mintTo(mint: LocalMint, owner: PublicKey, amount: bigint): PublicKey;
  stop(): Promise<void>;
}

export class LocalSolanaSetupError extends Error {
  constructor(what: string, detail: string) {
    super(`local Solana setup failed (${what}): ${detail}`);
    this.name = "LocalSolanaSetupError";
  }
}

export async function startLocalSolana(options: StartLocalSolanaOptions = {}): Promise<LocalSolana> {
  const slotMs = options.slotMs ?? 400;
  if (!Number.isInteger(slotMs) || slotMs < 0)
    throw new RangeError(`slotMs must be a whole number >= 0, got ${slotMs}`);
  const programIds: LocalSolanaProgramIds = {
    native: options.programIds?.native ?? DEFAULT_NATIVE_HTLC_PROGRAM_ID,
    spl: options.programIds?.spl ?? DEFAULT_SPL_HTLC_PROGRAM_ID,
    legacyNative: options.programIds?.legacyNative ?? LEGACY_NATIVE_HTLC_PROGRAM_ID,
    legacySpl: options.programIds?.legacySpl ?? LEGACY_SPL_HTLC_PROGRAM_ID,
  };
  const chain = new LocalSolanaChain({
    programs: {
      native_swaps: programIds.native,
      spl_swaps: programIds.spl,
      legacy_native_swaps: programIds.legacyNative,
      legacy_spl_swaps: programIds.legacySpl,
    },
    slotMs: slotMs > 0 ? slotMs : 400,
  });
  const server = createSolanaRpcServer(chain, options.logger);
  await listen(server, options.port ?? 0, "127.0.0.1");
  const { port } = server.address() as AddressInfo;
  let held = false;
  const timer =
    slotMs > 0
      ? setInterval(() => {
          if (!held) chain.advanceSlots();
        }, slotMs)
      : undefined;
  timer?.unref();

  const sendSetup = (what: string, instructions: TransactionInstruction[], signers: Keypair[]): string => {
    const message = new TransactionMessage({
      payerKey: chain.faucet.publicKey,
      recentBlockhash: chain.latestBlockhash().blockhash,
      instructions,
    }).compileToLegacyMessage();
    const tx = new VersionedTransaction(message);
    tx.sign([chain.faucet, ...signers]);
    try {
      return chain.send(tx.serialize());
    } catch (error) {
      throw new LocalSolanaSetupError(what, error instanceof Error ? error.message : String(error));
    }
  };

  return {
    url: `http://127.0.0.1:${port}`,
    chain,
    programIds,
    advanceSlots: (count = 1n) => chain.advanceSlots(count),
    holdSlots: (hold) => {
      held = hold;
    },
    fund: (to, lamports) => chain.airdrop(to, lamports),
    createMint: (decimals) => {
      const mint = Keypair.generate();
      const authority = Keypair.generate();
      const rent = chain.svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE));
      const ix = createMintInstructions(
        chain.faucet.publicKey,
        mint.publicKey,
        authority.publicKey,
        decimals,
        rent,
      );
      sendSetup("create mint", ix, [mint]);
      return { mint: mint.publicKey, authority, decimals };
    },
    mintTo: (mint, owner, amount) => {
      const account = associatedTokenAddress(owner, mint.mint);
      sendSetup(
        "mint tokens",
        [
          createAssociatedTokenAccountIdempotentInstruction(chain.faucet.publicKey, owner, mint.mint),
          mintToInstruction(mint.mint, account, mint.authority.publicKey, amount),
        ],
        [mint.authority],
      );
      return account;
    },
    stop: async () => {
      if (timer !== undefined) clearInterval(timer);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
