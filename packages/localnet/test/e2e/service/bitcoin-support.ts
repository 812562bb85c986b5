/**
 * The local service on a Bitcoin regtest chain (the project's node, or the bitcoind named by
 * BITCOIND_RPC_URL: these tests only talk RPC) and one anvil chain, with a funded Bitcoin user and a
 * funded stand-in for the solver, which acts by hand with its own key. Heights are relative to the tip.
 */
import { createHash, randomBytes } from "node:crypto";
import { networks } from "bitcoinjs-lib";
import { BitcoinKey } from "htlc-solver/chains/bitcoin/keys.js";
import type { BitcoinRpcClient } from "htlc-solver/chains/bitcoin/rpc.js";
import type { LocalServiceBitcoinChainConfig } from "../../../src/families/bitcoin/service/bitcoin-config.js";
import type { LocalService } from "../../../src/service/service.js";
import { BitcoinUserWallet } from "../../../src/families/bitcoin/user-bitcoin.js";
import type { CreateOrderResult, Order } from "htlc-solver/orderbook/types.js";
import { startBitcoinForTests, type BitcoinTestNode } from "../../../../../test/support/bitcoin-node.js";
import { startTestChain, type TestChain } from "./support/chains.js";
import { startQuoteSolver, type QuoteSolver } from "./support/quote-solver.js";
import { api, ok, serviceConfig, startService, type ApiAnswer } from "./support/service.js";

export const BTC = "bitcoin_regtest:btc";

export interface BitcoinServiceEnv {
  node: BitcoinTestNode;
  rpc: BitcoinRpcClient;
  evm: TestChain;
  quoteSolver: QuoteSolver;
  service: LocalService;
  /** The solver's Bitcoin key (its x-only key is the solver's party) and a wallet to fund from. */
  solverKey: BitcoinKey;
  solverWallet: BitcoinUserWallet;
  user: BitcoinUserWallet;
  mine(blocks?: number): Promise<number>;
  tip(): Promise<number>;
  stop(): Promise<void>;
}

const burn = BitcoinKey.random().walletPayment(networks.regtest).address;

export async function startBitcoinServiceEnv(options: {
  sourceTimelock?: number;
  destinationTimelock?: number;
  requiredConfirmations?: number;
  evmChainId: number;
}): Promise<BitcoinServiceEnv> {
  const node = await startBitcoinForTests();
  const evm = await startTestChain(`evm_${options.evmChainId}`, options.evmChainId);
  const quoteSolver = await startQuoteSolver("b7".repeat(32), 10_000n);
  const walletOptions = {
    chain: "bitcoin_regtest",
    network: "regtest" as const,
    rpcUrl: node.rpcUrl,
    rpcUser: node.rpcUser,
    rpcPassword: node.rpcPassword,
  };
  const solverPrivateKey = randomBytes(32).toString("hex");
  const solverWallet = new BitcoinUserWallet({ ...walletOptions, privateKey: solverPrivateKey });
  const user = BitcoinUserWallet.random(walletOptions);
  await node.rpc.generateToAddress(1, solverWallet.address);
  await node.rpc.generateToAddress(1, user.address);
  await node.rpc.generateToAddress(100, burn);

  const config = serviceConfig([{ chain: evm }], [quoteSolver]);
  const bitcoin: LocalServiceBitcoinChainConfig = {
    name: "bitcoin_regtest",
    family: "bitcoin",
    network: "regtest",
    rpcUrl: node.rpcUrl,
    rpcUser: node.rpcUser,
    rpcPassword: node.rpcPassword,
    requiredConfirmations: options.requiredConfirmations ?? 1,
    sourceTimelock: options.sourceTimelock ?? 144,
    destinationTimelock: options.destinationTimelock ?? 12,
    blockTimeMs: 1000,
    lookbackBlocks: 300,
    assets: [
      {
        symbol: "btc",
        name: "Bitcoin",
        decimals: 8,
        priceUsd: "60000",
        minAmount: "1000",
        maxAmount: "100000000000",
      },
    ],
  };
  config.chains.push(bitcoin);
  const solverKey = BitcoinKey.fromHex(solverPrivateKey);
  for (const solver of config.solvers) solver.addresses.bitcoin = solverKey.xOnlyHex;
  const service = await startService(config);
  return {
    node,
    rpc: node.rpc,
    evm,
    quoteSolver,
    service,
    solverKey,
    solverWallet,
    user,
    mine: async (blocks = 1) => {
      await node.rpc.generateToAddress(blocks, burn);
      return node.rpc.getBlockCount();
    },
    tip: () => node.rpc.getBlockCount(),
    stop: async () => {
      await service.stop();
      await Promise.all([quoteSolver.stop(), evm.anvil.stop(), node.stop()]);
    },
  };
}

export function newSecret(): { secret: string; secretHash: string } {
  const secret = randomBytes(32);
  return { secret: secret.toString("hex"), secretHash: createHash("sha256").update(secret).digest("hex") };
}

export async function createOrder(env: BitcoinServiceEnv, body: Record<string, unknown>): Promise<Order> {
  const created = await ok<CreateOrderResult>(env.service, "POST", "/v2/orders", {
    solver_id: env.quoteSolver.id,
    ...body,
  });
  return getOrder(env, created.order_id);
}

export function getOrder(env: BitcoinServiceEnv, orderId: string): Promise<Order> {
  return ok<Order>(env.service, "GET", `/v2/orders/${orderId}`);
}

/** The service's `?action=instant-refund`, as the solver sends it. */
export function instantRefund(
  env: BitcoinServiceEnv,
  orderId: string,
  partialTx: string,
): Promise<ApiAnswer> {
  return api(env.service, "PATCH", `/v2/orders/${orderId}?action=instant-refund`, { partial_tx: partialTx });
}

/** The service's `?action=refund`, as the user sends it. */
export function refund(env: BitcoinServiceEnv, orderId: string, refundAddress: string): Promise<ApiAnswer> {
  return api(env.service, "PATCH", `/v2/orders/${orderId}?action=refund`, { refund_address: refundAddress });
}

export async function waitForOrder(
  env: BitcoinServiceEnv,
  orderId: string,
  done: (order: Order) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<Order> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const order = await getOrder(env, orderId);
    if (done(order)) return order;
    if (Date.now() > until) throw new Error(`order ${orderId} never ${what}: ${JSON.stringify(order)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
