/**
 * The localnet's Sui chain: the project's verifying local Sui chain (docs/sui-localnet.md) with a
 * checkpoint every 250 ms, the `AtomicSwap` package at its local id and an `OrdersRegistry<SUI>`, and
 * accounts for the solver, the test users and the service's relayer, funded with SUI (which pays gas
 * and is the swapped asset). Keys come from public labels: localnet only.
 */
import { createHash } from "node:crypto";
import type { Logger } from "pino";
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519";
import { SUI_COIN_TYPE } from "htlc-solver/chains/sui/address.js";
import { startLocalSui } from "./chain/index.js";

export const LOCALNET_SUI_CHAIN = "sui_localnet";

/**
 * Sui makes a checkpoint about every quarter second; so does the local chain, so a swap sees its
 * confirmation within a poll. Timelocks are ms of the chain's clock, as the module takes them: a Sui
 * source of 2 h outlasts every fill plus the solver's margin; a Sui fill of 10 min fits inside the EVM,
 * Solana, Starknet and Bitcoin sources, like the other families' fills.
 */
export const LOCALNET_SUI_TIMING = {
  checkpointMs: 250,
  sourceTimelockMs: 7_200_000,
  destinationTimelockMs: 600_000,
  /** The initiate's own checkpoint counts as the first. */
  requiredConfirmations: 1,
};

export const SUI_DECIMALS = 9;
/** What each party starts with, whole SUI. */
export const LOCALNET_SUI_FUNDS = { solver: 10_000n, user: 1_000n, relayer: 1_000n };
/**
 * The solver's SUI comes as this many coin objects: a coin in a transaction in flight is locked until it
 * executes, so several let its fills, redeems and refunds run side by side.
 */
const SOLVER_COINS = 10n;

export interface LocalnetSuiKey {
  /** The account's Ed25519 key as the SDK exports it (`suiprivkey…`: what SOLVER_SUI_PRIVATE_KEY takes). */
  privateKey: string;
  /** `0x` and 64 hex. */
  address: string;
}

/** A fixed localnet key: sha256 of a public label (`localnet sui solver`, ...). */
export function localnetSuiKey(label: string): LocalnetSuiKey {
  const seed = createHash("sha256").update(`localnet sui ${label}`).digest();
  const keypair = Ed25519Keypair.fromSecretKey(Uint8Array.from(seed));
  return { privateKey: keypair.getSecretKey(), address: keypair.toSuiAddress() };
}

type LocalSui = Awaited<ReturnType<typeof startLocalSui>>;

export interface LocalSuiChainSetup {
  name: string;
  rpcUrl: string;
  local: LocalSui;
  packageId: string;
  /** The `OrdersRegistry<0x2::sui::SUI>` and the version it was shared at. */
  registry: { id: string; initialSharedVersion: string };
  solver: LocalnetSuiKey;
  relayer: LocalnetSuiKey;
  users: LocalnetSuiKey[];
  stop(): Promise<void>;
}

export async function setUpSuiChain(options: {
  userLabels: string[];
  /** Milliseconds per checkpoint; 0 makes them only on demand. */
  checkpointMs?: number;
  logger: Logger;
}): Promise<LocalSuiChainSetup> {
  const local = await startLocalSui({
    checkpointMs: options.checkpointMs ?? LOCALNET_SUI_TIMING.checkpointMs,
    logger: options.logger,
  });
  try {
    const registry = local.createRegistry(SUI_COIN_TYPE);
    const unit = 10n ** BigInt(SUI_DECIMALS);
    const account = (label: string, whole: bigint, coins = 1n): LocalnetSuiKey => {
      const key = localnetSuiKey(label);
      local.createAccount(key.privateKey);
      for (let i = 0n; i < coins; i++) local.mintSui(key.address, (whole * unit) / coins);
      return key;
    };
    const solver = account("solver", LOCALNET_SUI_FUNDS.solver, SOLVER_COINS);
    const users = options.userLabels.map((label) => account(label, LOCALNET_SUI_FUNDS.user));
    const relayer = account("relayer", LOCALNET_SUI_FUNDS.relayer);
    local.makeCheckpoint();
    return {
      name: LOCALNET_SUI_CHAIN,
      rpcUrl: local.url,
      local,
      packageId: local.packageId,
      registry: { id: registry.registryId, initialSharedVersion: registry.initialSharedVersion.toString() },
      solver,
      relayer,
      users,
      stop: () => local.stop(),
    };
  } catch (error) {
    await local.stop();
    throw error;
  }
}
