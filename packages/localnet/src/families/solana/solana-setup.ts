/**
 * The localnet's Solana chain: the project's local cluster (litesvm behind JSON-RPC) with the HTLC
 * programs at their live ids, a slot every 400 ms, a USDC-like SPL mint, and SOL and tokens for the
 * solver, the test users and the service's relayer. Keys come from public labels: localnet only.
 */
import { createHash } from "node:crypto";
import { Keypair, type PublicKey } from "@solana/web3.js";
import type { Logger } from "pino";
import { base58Encode } from "htlc-solver/chains/solana/base58.js";
import { startLocalSolana, type LocalSolana } from "./chain/index.js";

export const LOCALNET_SOLANA_CHAIN = "solana_localnet";
/** The chain id the localnet's Solana swap ids hash, as on the service's test network. */
export const LOCALNET_SOLANA_CHAIN_ID = 103;

/**
 * Slots, as on a real cluster, every 400 ms. A Solana source of 7200 slots (48 min) outlasts an EVM fill
 * of 600 blocks plus the 10 minute margin; a Solana fill of 600 slots (at most 5 min at the slowest slot
 * time the solver assumes) fits inside the EVM and Bitcoin sources.
 */
export const LOCALNET_SOLANA_TIMING = {
  slotMs: 400,
  /** The slowest average slot time the solver assumes here (the timer drifts under load). */
  maxSlotMs: 500,
  sourceTimelock: 7200,
  destinationTimelock: 600,
  requiredConfirmations: 1,
  /** Like the anvils': the solver follows its transactions three slots deep. */
  finalityDepth: 3,
};

const LAMPORTS_PER_SOL = 1_000_000_000n;
const USDC_DECIMALS = 6;
/** What each party starts with, whole units. */
export const LOCALNET_SOLANA_FUNDS = {
  solver: { sol: 10_000n, usdc: 1_000_000n },
  user: { sol: 1_000n, usdc: 100_000n },
  relayer: { sol: 100n },
};

export interface LocalnetSolanaKey {
  /** The 64-byte secret key, base58 (what SOLVER_SOLANA_PRIVATE_KEY takes). */
  secretKey: string;
  address: string;
}

/** A fixed localnet key: the seed is sha256 of a public label (`localnet solana solver`, ...). */
export function localnetSolanaKeypair(label: string): Keypair {
  return Keypair.fromSeed(createHash("sha256").update(`localnet solana ${label}`).digest());
}

export function localnetSolanaKey(label: string): LocalnetSolanaKey {
  const keypair = localnetSolanaKeypair(label);
  return { secretKey: base58Encode(keypair.secretKey), address: keypair.publicKey.toBase58() };
}

export interface LocalSolanaChainSetup {
  name: string;
  rpcUrl: string;
  local: LocalSolana;
  nativeProgramId: string;
  splProgramId: string;
  /** The USDC-like mint (6 decimals). */
  usdcMint: string;
  stop(): Promise<void>;
}

export async function setUpSolanaChain(options: {
  solver: PublicKey;
  users: PublicKey[];
  relayer: PublicKey;
  /** Milliseconds per slot; 0 advances slots only on demand. */
  slotMs?: number;
  logger: Logger;
}): Promise<LocalSolanaChainSetup> {
  const local = await startLocalSolana({
    slotMs: options.slotMs ?? LOCALNET_SOLANA_TIMING.slotMs,
    logger: options.logger,
  });
  try {
    const usdc = local.createMint(USDC_DECIMALS);
    const unit = 10n ** BigInt(USDC_DECIMALS);
    local.fund(options.solver, LOCALNET_SOLANA_FUNDS.solver.sol * LAMPORTS_PER_SOL);
    local.mintTo(usdc, options.solver, LOCALNET_SOLANA_FUNDS.solver.usdc * unit);
    for (const user of options.users) {
      local.fund(user, LOCALNET_SOLANA_FUNDS.user.sol * LAMPORTS_PER_SOL);
      local.mintTo(usdc, user, LOCALNET_SOLANA_FUNDS.user.usdc * unit);
    }
    local.fund(options.relayer, LOCALNET_SOLANA_FUNDS.relayer.sol * LAMPORTS_PER_SOL);
    return {
      name: LOCALNET_SOLANA_CHAIN,
      rpcUrl: local.url,
      local,
      nativeProgramId: local.programIds.native.toBase58(),
      splProgramId: local.programIds.spl.toBase58(),
      usdcMint: usdc.mint.toBase58(),
      stop: () => local.stop(),
    };
  } catch (error) {
    await local.stop();
    throw error;
  }
}
