/**
 * The localnet's Starknet chain: the project's verifying local chain (docs/starknet-localnet.md) with a
 * block a second, a WBTC-like ERC20 of 8 decimals and its HTLC (the deployed contract's order-id layout,
 * or the audited one's), an HTLC of the STRK fee token (the solver lists its coin among its assets, as
 * on Solana), and accounts for the solver, the test users and the service's relayer, funded
 * with STRK for fees and with WBTC. Keys come from public labels: localnet only.
 */
import { createHash } from "node:crypto";
import type { Logger } from "pino";
import { ec } from "starknet";
import type { OrderIdLayout } from "htlc-solver/chains/starknet/order-id.js";
import { addressHex } from "htlc-solver/chains/starknet/felt.js";
import { startLocalStarknet } from "./chain/index.js";

export const LOCALNET_STARKNET_CHAIN = "starknet_localnet";
/** The chain id short string hashed into the localnet's order ids and signed in its SNIP-12 domains. */
export const LOCALNET_STARKNET_CHAIN_ID = "SN_LOCALNET";

/**
 * A block a second, like the anvils (Starknet itself makes one every few seconds), so a swap takes a few
 * blocks' time. A Starknet source of 7200 blocks (2 h) outlasts every fill plus the 10 minute margin; a
 * Starknet fill of 600 blocks (at most 12.5 min at the slowest block time the solver assumes) fits inside
 * the EVM, Solana and Bitcoin sources.
 */
export const LOCALNET_STARKNET_TIMING = {
  blockMs: 1000,
  /** The slowest average block time the solver assumes here (the timer drifts under load). */
  maxBlockMs: 1250,
  sourceTimelock: 7200,
  destinationTimelock: 600,
  requiredConfirmations: 1,
  /** Like the anvils': the solver takes its transactions as final three blocks deep (ACCEPTED_ON_L2). */
  finalityDepth: 3,
  /** Blocks after which the chain marks a block ACCEPTED_ON_L1. */
  l1AcceptDepth: 10,
};

const STRK_DECIMALS = 18;
export const WBTC_DECIMALS = 8;
/** What each party starts with, whole units. */
export const LOCALNET_STARKNET_FUNDS = {
  solver: { strk: 100_000n, wbtc: 100n },
  user: { strk: 10_000n, wbtc: 10n },
  relayer: { strk: 10_000n },
};

export interface LocalnetStarknetKey {
  /** The account's Stark private key, `0x` and 64 hex (what SOLVER_STARKNET_PRIVATE_KEY takes). */
  privateKey: string;
  /** The account contract's address, `0x` and 64 hex. */
  address: string;
}

/** A fixed localnet key: sha256 of a public label (`localnet starknet solver`, ...), below the curve order. */
export function localnetStarknetPrivateKey(label: string): string {
  const digest = BigInt(`0x${createHash("sha256").update(`localnet starknet ${label}`).digest("hex")}`);
  return addressHex((digest % (ec.starkCurve.CURVE.n - 1n)) + 1n);
}

type LocalStarknet = Awaited<ReturnType<typeof startLocalStarknet>>;

export interface LocalStarknetChainSetup {
  name: string;
  chainId: string;
  rpcUrl: string;
  local: LocalStarknet;
  /** The STRK fee token (the chain's). */
  strk: string;
  wbtc: string;
  /** The WBTC HTLC of each order-id layout; the localnet's swaps use one of them. */
  htlcs: Record<OrderIdLayout, string>;
  /** The STRK HTLC of each layout. */
  strkHtlcs: Record<OrderIdLayout, string>;
  solver: LocalnetStarknetKey;
  relayer: LocalnetStarknetKey;
  users: LocalnetStarknetKey[];
  stop(): Promise<void>;
}

export async function setUpStarknetChain(options: {
  userLabels: string[];
  /** Milliseconds per block; 0 makes blocks only on demand. */
  blockMs?: number;
  logger: Logger;
}): Promise<LocalStarknetChainSetup> {
  const local = await startLocalStarknet({
    chainId: LOCALNET_STARKNET_CHAIN_ID,
    blockMs: options.blockMs ?? LOCALNET_STARKNET_TIMING.blockMs,
    l1AcceptDepth: LOCALNET_STARKNET_TIMING.l1AcceptDepth,
    logger: options.logger,
  });
  try {
    const wbtc = local.deployErc20({ symbol: "WBTC", decimals: WBTC_DECIMALS });
    const htlcs: Record<OrderIdLayout, string> = {
      deployed: local.deployHtlc({ token: wbtc, layout: "deployed" }),
      audited: local.deployHtlc({ token: wbtc, layout: "audited" }),
    };
    const strkHtlcs: Record<OrderIdLayout, string> = {
      deployed: local.deployHtlc({ token: local.feeToken, layout: "deployed" }),
      audited: local.deployHtlc({ token: local.feeToken, layout: "audited" }),
    };
    const account = (label: string): LocalnetStarknetKey => {
      const created = local.createAccount(localnetStarknetPrivateKey(label));
      return { privateKey: localnetStarknetPrivateKey(label), address: addressHex(BigInt(created.address)) };
    };
    const strkUnit = 10n ** BigInt(STRK_DECIMALS);
    const wbtcUnit = 10n ** BigInt(WBTC_DECIMALS);
    const solver = account("solver");
    local.mint(local.feeToken, solver.address, LOCALNET_STARKNET_FUNDS.solver.strk * strkUnit);
    local.mint(wbtc, solver.address, LOCALNET_STARKNET_FUNDS.solver.wbtc * wbtcUnit);
    const users = options.userLabels.map((label) => {
      const user = account(label);
      local.mint(local.feeToken, user.address, LOCALNET_STARKNET_FUNDS.user.strk * strkUnit);
      local.mint(wbtc, user.address, LOCALNET_STARKNET_FUNDS.user.wbtc * wbtcUnit);
      return user;
    });
    const relayer = account("relayer");
    local.mint(local.feeToken, relayer.address, LOCALNET_STARKNET_FUNDS.relayer.strk * strkUnit);
    return {
      name: LOCALNET_STARKNET_CHAIN,
      chainId: LOCALNET_STARKNET_CHAIN_ID,
      rpcUrl: local.url,
      local,
      strk: local.feeToken,
      wbtc,
      htlcs,
      strkHtlcs,
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
