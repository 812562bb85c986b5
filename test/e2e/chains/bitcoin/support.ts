/**
 * Shared setup of the Bitcoin e2e tests: a regtest node (the project's own, or a real bitcoind when
 * BITCOIND_RPC_URL is set), an in-memory journal view, the solver's executor and a funded "user"
 * wallet standing in for the counterparty. Heights are always taken relative to the current tip.
 */
import { randomBytes } from "node:crypto";
import { crypto as btcCrypto, networks } from "bitcoinjs-lib";
import type { ActionKind, ActionRequest, HtlcParams } from "../../../../src/chains/chain.js";
import { BitcoindBackend } from "../../../../src/chains/bitcoin/bitcoind-backend.js";
import { bytesToHex } from "../../../../src/chains/bitcoin/bytes.js";
import { BitcoinExecutor } from "../../../../src/chains/bitcoin/executor.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import { BitcoinRpcClient } from "../../../../src/chains/bitcoin/rpc.js";
import { BitcoinWallet } from "../../../../src/chains/bitcoin/wallet.js";
import { startBitcoinForTests } from "../../../support/bitcoin-node.js";
import { FaultProxy } from "../../../support/fault-proxy.js";
import { bitcoinTerms, MemoryJournal } from "../../../support/memory-journal.js";
import type { BitcoinChainConfig } from "../../../../src/chains/bitcoin/config.js";

export { MemoryJournal };

export const CHAIN = "bitcoin_regtest";
export const ASSET = `${CHAIN}:btc`;

export function chainConfig(
  rpcUrl: string,
  rpcUser: string,
  rpcPassword: string,
  fees = { floor: 1, ceiling: 50 },
): BitcoinChainConfig {
  return {
    family: "bitcoin",
    name: CHAIN,
    network: "regtest",
    backend: "bitcoind",
    rpcUrls: [rpcUrl],
    rpcUser,
    rpcPassword,
    esploraUrls: [],
    maxHeadLagBlocks: 1,
    rpcTimeoutMs: 30_000,
    minBlockTimeMs: 1_000,
    maxBlockTimeMs: 600_000,
    minConfirmations: 1,
    finalityDepth: 1,
    fillTimelockBlocks: 12,
    bumpAfterMs: 60_000,
    feeRateFloorSatVb: fees.floor,
    feeRateCeilingSatVb: fees.ceiling,
    maxBatch: 50,
    assets: [
      { id: ASSET, chain: CHAIN, symbol: "btc", decimals: 8, tokenAddress: "primary", htlcAddress: "" },
    ],
  };
}

export interface BitcoinEnv {
  rpc: BitcoinRpcClient;
  config: BitcoinChainConfig;
  solverKey: BitcoinKey;
  journal: MemoryJournal;
  executor: BitcoinExecutor;
  backend: BitcoindBackend;
  user: { key: BitcoinKey; wallet: BitcoinWallet; journal: MemoryJournal };
  /** A fresh executor over the same journal, as after a restart. */
  restart(): BitcoinExecutor;
  mine(blocks?: number): Promise<number>;
  /** Mines one block holding exactly these mempool transactions. */
  mineOnly(txids: string[]): Promise<number>;
  tip(): Promise<number>;
  stop(): Promise<void>;
}

const burn = BitcoinKey.random().walletPayment(networks.regtest).address;

export async function startBitcoinEnv(fees?: { floor: number; ceiling: number }): Promise<BitcoinEnv> {
  const node = await startBitcoinForTests();
  const config = chainConfig(node.rpcUrl, node.rpcUser, node.rpcPassword, fees);
  const solverKey = BitcoinKey.random();
  const journal = new MemoryJournal();
  const backend = new BitcoindBackend({ rpc: node.rpc, network: networks.regtest, lookbackBlocks: 300 });
  const makeExecutor = () => new BitcoinExecutor({ config, key: solverKey, backend, journal });
  const executor = makeExecutor();
  const userKey = BitcoinKey.random();
  const userJournal = new MemoryJournal();
  const userWallet = new BitcoinWallet({
    chain: CHAIN,
    key: userKey,
    network: networks.regtest,
    backend,
    journal: userJournal,
  });
  // One mature coinbase each for the solver and the user.
  await node.rpc.generateToAddress(1, executor.wallet.address);
  await node.rpc.generateToAddress(1, userWallet.address);
  await node.rpc.generateToAddress(100, burn);
  return {
    rpc: node.rpc,
    config,
    solverKey,
    journal,
    executor,
    backend,
    user: { key: userKey, wallet: userWallet, journal: userJournal },
    restart: makeExecutor,
    mine: async (blocks = 1) => {
      await node.rpc.generateToAddress(blocks, burn);
      return node.rpc.getBlockCount();
    },
    mineOnly: async (txids) => {
      await node.rpc.generateBlock(burn, txids);
      return node.rpc.getBlockCount();
    },
    tip: () => node.rpc.getBlockCount(),
    stop: () => node.stop(),
  };
}

export function newSecret(): { secret: string; secretHash: string } {
  const secret = randomBytes(32);
  return { secret: secret.toString("hex"), secretHash: bytesToHex(btcCrypto.sha256(secret)) };
}

export function htlcParams(
  initiator: BitcoinKey,
  redeemer: BitcoinKey,
  secretHash: string,
  amount: bigint,
  timelock = 12n,
): HtlcParams {
  return {
    chain: CHAIN,
    asset: ASSET,
    swapId: "",
    initiator: initiator.xOnlyHex,
    redeemer: redeemer.xOnlyHex,
    secretHash,
    timelock,
    amount,
  };
}

export function action(kind: ActionKind, params: HtlcParams, secret?: string): ActionRequest {
  return {
    kind,
    orderId: `order-${params.secretHash.slice(0, 8)}`,
    params,
    ...(secret === undefined ? {} : { secret }),
  };
}

/** An action spending every unspent output the chain shows at the HTLC, as the planner would name them. */
export async function spendAction(
  env: BitcoinEnv,
  kind: ActionKind,
  params: HtlcParams,
  secret?: string,
): Promise<ActionRequest> {
  const state = await env.executor.reader.readHtlc(params);
  const locks = state.locks.filter((lock) => lock.spend === null).map((lock) => lock.id);
  return { ...action(kind, params, secret), locks };
}

/** The user (test counterparty) pays these amounts into HTLC addresses in one transaction and broadcasts. */
export async function userFunds(
  env: BitcoinEnv,
  outputs: { script: Uint8Array; value: bigint }[],
): Promise<string> {
  const paid = await env.user.wallet.pay(outputs, 2n);
  const txid = await env.backend.broadcast(paid.tx.toHex());
  env.user.journal.record({
    chain: CHAIN,
    txHash: txid,
    raw: paid.tx.toHex(),
    nonce: null,
    terms: bitcoinTerms(),
  });
  return txid;
}

/**
 * A backend of its own over a proxy that holds every request `delayMs` before the node answers, and the
 * solver's executor over it (same key and journal as `env.executor`): reads made one after another show
 * up in the proxy's timeline as a chain of round trips.
 */
export async function delayedBackend(
  env: BitcoinEnv,
  delayMs: number,
): Promise<{ proxy: FaultProxy; backend: BitcoindBackend; executor: BitcoinExecutor }> {
  const proxy = new FaultProxy(env.config.rpcUrls[0]!, { config: { delayMs } });
  await proxy.start();
  const rpc = new BitcoinRpcClient({
    urls: [proxy.url],
    user: env.config.rpcUser ?? "",
    password: env.config.rpcPassword ?? "",
    chain: env.config.name,
    maxHeadLagBlocks: 1,
    headRefreshMs: 250,
    timeoutMs: 10_000,
  });
  const backend = new BitcoindBackend({ rpc, network: networks.regtest, lookbackBlocks: 300 });
  const executor = new BitcoinExecutor({
    config: env.config,
    key: env.solverKey,
    backend,
    journal: env.journal,
  });
  return { proxy, backend, executor };
}
