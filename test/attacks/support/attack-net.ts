/**
 * The attacker's workbench: a localnet whose solver reads the service through a proxy that can lie,
 * balances of the solver on every chain, and the chain moves an attacker makes (paying dust, paying at the
 * bare minimum fee so a payment never mines, spending with keys a compromised service holds).
 */
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import Database from "better-sqlite3";
import { createPublicClient, createWalletClient, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { erc20Abi } from "../../../src/chains/evm/htlc-abi.js";
import { evmChain } from "../../../src/chains/evm/client.js";
import type { SolverConfig } from "../../../src/config/types.js";
import type { LocalnetOptions } from "@htlc-solver/localnet/localnet.js";
import type { LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { anvilCall, startTestLocalnet, waitFor, type TestLocalnet } from "../../support/localnet.js";
import { LyingProxy } from "../../support/lying-proxy.js";

export interface AttackNet extends TestLocalnet {
  /** Between the solver and the service: tells the truth until told to lie about an order. */
  proxy: LyingProxy;
}

/**
 * A localnet whose solver reads the service through a lying proxy, with its config adjusted as given
 * (asynchronously when the adjustment starts something of its own, such as a proxy in front of a chain).
 */
export async function startAttackNet(
  options: Partial<LocalnetOptions> = {},
  adjust: (config: SolverConfig) => SolverConfig | Promise<SolverConfig> = (config) => config,
  proxyOptions: { onlyNamed?: boolean } = {},
): Promise<AttackNet> {
  const t = await startTestLocalnet({ ...options, startSolver: false });
  const proxy = new LyingProxy(t.net.descriptor.service.url, proxyOptions);
  await proxy.start();
  const base = t.net.solverConfig;
  await t.net.startSolver(await adjust({ ...base, service: { ...base.service, url: proxy.url } }));
  return { ...t, proxy };
}

export async function stopAttackNet(t: AttackNet | undefined): Promise<void> {
  await t?.net.stop();
  await t?.proxy.stop();
}

/** A localnet EVM chain's descriptor, with a public client and the viem chain definition for it. */
export function evmClients(t: TestLocalnet, chainName: string) {
  const chain = t.net.descriptor.chains.find((c) => c.name === chainName);
  if (chain === undefined) throw new Error(`no chain ${chainName} on the localnet`);
  const definition = evmChain(chain.chainId, chain.name, [chain.rpcUrl]);
  return { chain, pub: createPublicClient({ chain: definition, transport: http(chain.rpcUrl) }), definition };
}

/** The solver's holding of an asset on chain now (confirmed Bitcoin outputs; EVM state at the tip). */
export async function solverHolds(t: TestLocalnet, assetId: string): Promise<bigint> {
  const { solver, bitcoin } = t.net.descriptor;
  if (assetId.startsWith(`${bitcoin.name}:`)) {
    const scan = await t.net.bitcoin.rpc.scanTxOutSet([solver.bitcoinAddress]);
    return scan.unspents.reduce((sum, u) => sum + u.amountSats, 0n);
  }
  const [chainName] = assetId.split(":");
  const { chain, pub } = evmClients(t, chainName ?? "");
  const asset = chain.assets.find((a) => a.id === assetId);
  if (asset === undefined) throw new Error(`no asset ${assetId}`);
  if (asset.tokenAddress === "native") return pub.getBalance({ address: solver.evmAddress });
  return pub.readContract({
    address: asset.tokenAddress as Address,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [solver.evmAddress],
  });
}

/**
 * Moves the solver's tokens to or from a holding account: its inventory falls, or comes back, between
 * rounds, as an operator moving funds would make it. Call it while the solver has nothing in flight on
 * that chain: the move takes a nonce of the solver's account.
 */
export async function moveSolverTokens(
  t: TestLocalnet,
  assetId: string,
  direction: "away" | "back",
  amount: bigint,
): Promise<void> {
  const [chainName] = assetId.split(":");
  const { chain, pub, definition } = evmClients(t, chainName ?? "");
  const asset = chain.assets.find((a) => a.id === assetId);
  if (asset === undefined || asset.tokenAddress === "native") throw new Error(`${assetId} is not a token`);
  const solver = privateKeyToAccount(t.net.solverConfig.solver.keys.evm as Hex);
  const holder = privateKeyToAccount(HOLDER_KEY);
  const from = direction === "away" ? solver : holder;
  const to = direction === "away" ? holder.address : solver.address;
  if (direction === "back") {
    await anvilCall(chain.rpcUrl, "anvil_setBalance", [holder.address, "0x16345785d8a0000"]);
  }
  const wallet = createWalletClient({ account: from, chain: definition, transport: http(chain.rpcUrl) });
  const hash = await wallet.writeContract({
    address: asset.tokenAddress as Address,
    abi: erc20Abi,
    functionName: "transfer",
    args: [to, amount],
  });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`moving ${assetId} ${direction} reverted`);
}

/**
 * Sets the solver's allowance of a token to its HTLC, from outside, as an operator's mistake would: at
 * zero every fill of the token fails to build (its action fails and is tried again each round) until it
 * is granted again. Call it while the solver has nothing in flight on that chain: it takes a nonce of the
 * solver's account.
 */
export async function setSolverAllowance(t: TestLocalnet, assetId: string, amount: bigint): Promise<void> {
  const [chainName] = assetId.split(":");
  const { chain, pub, definition } = evmClients(t, chainName ?? "");
  const asset = chain.assets.find((a) => a.id === assetId);
  if (asset === undefined || asset.tokenAddress === "native") throw new Error(`${assetId} is not a token`);
  const solver = privateKeyToAccount(t.net.solverConfig.solver.keys.evm as Hex);
  const wallet = createWalletClient({ account: solver, chain: definition, transport: http(chain.rpcUrl) });
  const hash = await wallet.writeContract({
    address: asset.tokenAddress as Address,
    abi: erc20Abi,
    functionName: "approve",
    args: [asset.htlcAddress as Address, amount],
  });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`setting the allowance of ${assetId} reverted`);
}

/** A throwaway account that holds the solver's tokens while they are away. */
const HOLDER_KEY: Hex = `0x${"4e".repeat(32)}`;

/** The private key a compromised service holds for a Bitcoin HTLC it made (the source's initiator key). */
export function serviceKeyOf(t: TestLocalnet, swapId: string): string {
  const db = new Database(join(t.dir, "service.sqlite"), { readonly: true });
  try {
    const row = db.prepare("SELECT private_key FROM order_keys WHERE swap_id = ?").get(swapId) as
      { private_key: string } | undefined;
    if (row === undefined) throw new Error(`the service holds no key for ${swapId}`);
    return row.private_key;
  } finally {
    db.close();
  }
}

/** Waits until the solver has finished `rounds` more rounds, so a test can say "and still nothing". */
export async function solverRounds(t: TestLocalnet, rounds: number): Promise<void> {
  const runner = t.net.solver!.runner;
  let seen = runner.lastTickMs;
  let count = 0;
  await waitFor(
    () => {
      if (runner.lastTickMs !== seen) {
        seen = runner.lastTickMs;
        count += 1;
      }
      return count >= rounds;
    },
    `${rounds} solver rounds`,
    60_000,
  );
}

/** The solver's journaled actions of an order as `kind:status`. */
export function journaled(t: TestLocalnet, order: Order): string[] {
  return t.net.solver!.journal.orderActions(order.order_id).map((a) => `${a.kind}:${a.status}`);
}

/** The solver's mined transactions of one action of an order. */
export function minedAttempts(t: TestLocalnet, order: Order, kind: string) {
  const journal = t.net.solver!.journal;
  const action = journal.orderActions(order.order_id).find((a) => a.kind === kind);
  if (action === undefined) return [];
  return journal.attemptsOfAction(action.id).filter((a) => a.state === "confirmed");
}

/** The user takes the fill with their secret (an EVM destination); waits for the solver's source redeem to be mined. */
export async function redeemAndSettle(
  t: TestLocalnet,
  user: LocalUser,
  order: Order,
  secret: Hex,
): Promise<void> {
  await user.redeemDestination(order, secret);
  await waitFor(() => journaled(t, order).includes("redeem:confirmed"), "the source redeem to be mined");
}

export function lastReason(t: TestLocalnet, order: Order): string | undefined {
  return t.net.solver!.journal.lastDecision(order.order_id)?.reason;
}

/**
 * An attack net for the tests of the `describe` this is called in: started before them, stopped after.
 * The getter throws when read outside a test (the net is not up yet).
 */
export function useAttackNet(
  options: Partial<LocalnetOptions> = {},
  adjust?: (config: SolverConfig) => SolverConfig | Promise<SolverConfig>,
): () => AttackNet {
  let net: AttackNet | undefined;
  beforeAll(async () => {
    net = await startAttackNet(options, adjust);
  });
  afterAll(async () => {
    await stopAttackNet(net);
  });
  return () => {
    if (net === undefined) throw new Error("the attack net is read before it started");
    return net;
  };
}
