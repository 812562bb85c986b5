/**
 * A Solana cluster (the local chain with slots on demand, or a validator named by SOLANA_RPC_URL, reached
 * only over JSON-RPC), a funded solver and user (SOL and a USDC-like mint), and the solver's Solana
 * family over it, for the family's end-to-end tests.
 */
import { createHash, randomBytes } from "node:crypto";
import { Keypair, type TransactionInstruction } from "@solana/web3.js";
import type {
  ActionKind,
  ActionRequest,
  HtlcParams,
  SignedTx,
  TxStatus,
} from "../../../../src/chains/chain.js";
import { base58Encode } from "../../../../src/chains/solana/base58.js";
import { createSolanaFamily, type SolanaFamily } from "../../../../src/chains/solana/family.js";
import { MemoryFollowPositions } from "../../../../src/chains/follow-positions.js";
import { resolveSolanaAsset } from "../../../../src/chains/solana/assets.js";
import type { SolanaProgramVersion } from "../../../../src/chains/solana/program-version.js";
import { swapTermsOf } from "../../../../src/chains/solana/swap-params.js";
import { MemoryJournal } from "../../../support/memory-journal.js";
import { SolanaTestCluster, type TestMint } from "../../../support/solana-rpc.js";
import type { SolanaChainConfig } from "../../../../src/chains/solana/config.js";

export const CHAIN = "solana_localnet";
export const SOL = `${CHAIN}:sol`;
export const USDC = `${CHAIN}:usdc`;
export const LAMPORTS_PER_SOL = 1_000_000_000n;

export interface SolanaFamilyFixture {
  cluster: SolanaTestCluster;
  usdc: TestMint;
  config: SolanaChainConfig;
  solver: Keypair;
  user: Keypair;
  journal: MemoryJournal;
  family: SolanaFamily;
  stop(): Promise<void>;
}

/** `version` picks the programs the solver's chain speaks; the local chain runs both versions. */
export async function startSolanaFamilyFixture(
  version: SolanaProgramVersion = "current",
): Promise<SolanaFamilyFixture> {
  const cluster = await SolanaTestCluster.start();
  const solver = Keypair.generate();
  const user = Keypair.generate();
  const [, , usdc] = await Promise.all([
    cluster.fund(solver.publicKey, 100n * LAMPORTS_PER_SOL),
    cluster.fund(user.publicKey, 100n * LAMPORTS_PER_SOL),
    cluster.createMint(6),
  ]);
  await Promise.all([
    cluster.mintTo(usdc, solver.publicKey, 1_000_000_000_000n),
    cluster.mintTo(usdc, user.publicKey, 1_000_000_000_000n),
  ]);
  const legacy = version === "legacy";
  const nativeId = legacy ? cluster.legacyNativeId : cluster.nativeId;
  const splId = legacy ? cluster.legacySplId : cluster.splId;
  const config: SolanaChainConfig = {
    family: "solana",
    name: CHAIN,
    chainId: 103,
    rpcUrls: [cluster.url],
    nativeProgramId: nativeId.toBase58(),
    splProgramId: splId.toBase58(),
    programVersion: version,
    commitment: "confirmed",
    minBlockTimeMs: 400,
    maxBlockTimeMs: 400,
    minConfirmations: 1,
    finalityDepth: 1,
    fillTimelockBlocks: 1_000,
    bumpAfterMs: 30_000,
    maxHeadLagBlocks: 75,
    rpcTimeoutMs: 5_000,
    computeUnitPriceFloorMicroLamports: 0n,
    computeUnitPriceCeilingMicroLamports: 1_000_000n,
    assets: [
      {
        id: SOL,
        chain: CHAIN,
        symbol: "sol",
        decimals: 9,
        tokenAddress: "native",
        htlcAddress: nativeId.toBase58(),
      },
      {
        id: USDC,
        chain: CHAIN,
        symbol: "usdc",
        decimals: 6,
        tokenAddress: usdc.mint.toBase58(),
        htlcAddress: splId.toBase58(),
      },
    ],
  };
  const journal = new MemoryJournal();
  const family = createSolanaFamily({
    config,
    secretKey: base58Encode(solver.secretKey),
    journal,
    positions: new MemoryFollowPositions(),
  });
  return { cluster, usdc, config, solver, user, journal, family, stop: () => cluster.stop() };
}

export interface Swap {
  params: HtlcParams;
  secret: string;
}

/** A swap's order side: `initiator` locks (and refunds), `redeemer` redeems; the swap id as the API gives it. */
export function swapOf(
  f: SolanaFamilyFixture,
  asset: string,
  initiator: Keypair,
  redeemer: Keypair,
  amount: bigint,
  timelock: bigint,
): Swap {
  const secret = randomBytes(32);
  const params: HtlcParams = {
    chain: CHAIN,
    asset,
    swapId: "",
    initiator: initiator.publicKey.toBase58(),
    redeemer: redeemer.publicKey.toBase58(),
    secretHash: createHash("sha256").update(secret).digest("hex"),
    timelock,
    amount,
  };
  params.swapId = f.family.reader.computeSwapId(params);
  return { params, secret: secret.toString("hex") };
}

/**
 * The user locks a source swap itself, paying amount and rent (the chain's version of initiate, as the
 * solver's fill would with the user in its place); returns once it is confirmed.
 */
export function userInitiates(f: SolanaFamilyFixture, swap: Swap): Promise<string> {
  const asset = resolveSolanaAsset(f.config, swap.params.asset);
  const ix = f.family.reader.htlc.fill(asset, swapTermsOf(swap.params), f.user.publicKey);
  return sendAs(f, [ix], f.user);
}

/** Sent with `payer` paying the fee and signing alone; returns once it is confirmed. */
export function sendAs(
  f: SolanaFamilyFixture,
  instructions: TransactionInstruction[],
  payer: Keypair,
): Promise<string> {
  return f.cluster.send(instructions, [], payer);
}

export function action(kind: ActionKind, swap: Swap, extra: Partial<ActionRequest> = {}): ActionRequest {
  return { kind, orderId: `order-${swap.params.swapId.slice(0, 12)}`, params: swap.params, ...extra };
}

/**
 * The runner's sequence: build, journal, broadcast; then, once the transaction is confirmed (the local
 * chain moves one slot on, a validator is waited for), the status is read.
 */
export async function run(
  f: SolanaFamilyFixture,
  request: ActionRequest,
): Promise<{ signed: SignedTx; status: TxStatus }> {
  const signed = await f.family.executor.build([request]);
  const attempt = f.journal.record(signed, { orderId: request.orderId, kind: request.kind });
  await f.family.executor.broadcast(signed);
  await f.cluster.confirm(signed.txHash);
  const status = await f.family.executor.txStatus(attempt, [request]);
  if (status.state === "confirmed" || status.state === "failed") f.journal.settle(signed.txHash);
  return { signed, status };
}

/** The chosen lock of a swap as the reader names it. */
export async function locksOf(f: SolanaFamilyFixture, swap: Swap): Promise<string[]> {
  const state = await f.family.reader.readHtlc(swap.params);
  return state.locks.filter((l) => l.spend === null).map((l) => l.id);
}

/** Units the HTLC program itself used in a landed transaction, from its "consumed" log line. */
export async function programUnits(f: SolanaFamilyFixture, signature: string): Promise<bigint> {
  const tx = await f.cluster.connection.getTransaction(signature, {
    commitment: "confirmed",
    maxSupportedTransactionVersion: 0,
  });
  const ids = [f.config.nativeProgramId, f.config.splProgramId];
  for (const line of tx?.meta?.logMessages ?? []) {
    const m = /^Program (\w+) consumed (\d+) of \d+ compute units$/.exec(line);
    if (m?.[1] !== undefined && m[2] !== undefined && ids.includes(m[1])) return BigInt(m[2]);
  }
  throw new Error(`no HTLC program units in ${signature}`);
}
