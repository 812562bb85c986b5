/**
 * The bitcoind backend over two endpoints of one regtest node (the project's, or a real bitcoind from
 * BITCOIND_RPC_URL), each behind the fault proxy. What the backend answers is checked against the node.
 */
import { networks } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BitcoindBackend } from "../../../../src/chains/bitcoin/bitcoind-backend.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import { BitcoinRpcClient } from "../../../../src/chains/bitcoin/rpc.js";
import { BitcoinWallet } from "../../../../src/chains/bitcoin/wallet.js";
import { startBitcoinForTests, type BitcoinTestNode } from "../../../support/bitcoin-node.js";
import { FaultProxy, type FaultConfig } from "../../../support/fault-proxy.js";

const CHAIN = "bitcoin_regtest";
const network = networks.regtest;
const burn = BitcoinKey.random().walletPayment(network).address;
const noAttempts = { liveAttempts: () => [], actionTxids: () => [], journaledTx: () => null };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let node: BitcoinTestNode;
const proxies: FaultProxy[] = [];

beforeAll(async () => {
  node = await startBitcoinForTests();
});

afterAll(async () => {
  await Promise.all(proxies.map((p) => p.stop()));
  await node?.stop();
});

async function proxy(config: Partial<FaultConfig>, seed: number): Promise<FaultProxy> {
  const p = new FaultProxy(node.rpcUrl, { seed, config });
  await p.start();
  proxies.push(p);
  return p;
}

function backendOver(urls: string[]): { rpc: BitcoinRpcClient; backend: BitcoindBackend } {
  const rpc = new BitcoinRpcClient({
    urls,
    user: node.rpcUser,
    password: node.rpcPassword,
    chain: CHAIN,
    maxHeadLagBlocks: 1,
    headRefreshMs: 250,
    timeoutMs: 2_000,
  });
  return { rpc, backend: new BitcoindBackend({ rpc, network, lookbackBlocks: 10 }) };
}

/** A wallet with one mature coinbase output, paying through `backend`. */
async function fundedWallet(backend: BitcoindBackend): Promise<BitcoinWallet> {
  const wallet = new BitcoinWallet({
    chain: CHAIN,
    key: BitcoinKey.random(),
    network,
    backend,
    journal: noAttempts,
  });
  await node.rpc.generateToAddress(1, wallet.address);
  await node.rpc.generateToAddress(100, burn);
  return wallet;
}

/** 30 % of calls fail, in every way that does not take a timeout. */
const FLAKY: Partial<FaultConfig> = {
  failRate: 0.3,
  faults: { http500: 1, http429: 1, rpcError: 1, reset: 1 },
  retryAfter: { seconds: 1, form: "seconds" },
};

describe("Bitcoin reads and sends through faulty endpoints", () => {
  it("with 30% of calls failing and one endpoint stale, reads are current and sends reach the chain", async () => {
    const stale = await proxy(FLAKY, 51);
    const healthy = await proxy(FLAKY, 52);
    const { rpc, backend } = backendOver([stale.url, healthy.url]);
    const wallet = await fundedWallet(backend);
    expect(await backend.tipHeight()).toBe(await node.rpc.getBlockCount());
    stale.freezeHead(await node.rpc.getBlockCount());
    await node.rpc.generateToAddress(5, burn);
    await sleep(300); // one head refresh interval
    for (let i = 0; i < 10; i++) expect(await backend.tipHeight()).toBe(await node.rpc.getBlockCount());

    // The wallet's coin is in a block the stale endpoint does not have: its UTXO scan must be current.
    const target = BitcoinKey.random().walletPayment(network);
    const payment = await wallet.pay([{ script: target.output, value: 50_000n }], 2n);
    const txid = await backend.broadcast(payment.tx.toHex());
    expect(txid).toBe(payment.tx.getId());
    expect(await node.rpc.getRawMempool()).toContain(txid);
    await node.rpc.generateToAddress(1, burn);
    const minedAt = await node.rpc.getBlockCount();
    await sleep(300);
    const activity = await backend.addressActivity(target.address);
    expect(activity.tipHeight).toBe(minedAt);
    expect(activity.outputs).toEqual([{ txid, vout: 0, value: 50_000n, height: minedAt, spentBy: null }]);
    expect(await backend.transactionStatus(txid, payment.tx.toHex())).toEqual({
      state: "confirmed",
      height: minedAt,
    });

    expect(stale.totals().faults + healthy.totals().faults).toBeGreaterThan(5);
    expect(stale.totals().stale).toBeGreaterThan(0);
    expect(rpc.pool.status()[0]).toMatchObject({ current: false });
  });

  it("does not lose a transaction when one endpoint drops sends and another is healthy", async () => {
    const dropper = await proxy({ dropSends: true }, 61);
    const healthy = await proxy({}, 62);
    const direct = backendOver([healthy.url]).backend;
    const wallet = await fundedWallet(direct);
    const payment = await wallet.pay(
      [{ script: BitcoinKey.random().walletPayment(network).output, value: 40_000n }],
      2n,
    );
    const raw = payment.tx.toHex();
    const txid = payment.tx.getId();
    // Alone, the dropping endpoint says "sent" and the node never sees the transaction.
    expect(await backendOver([dropper.url]).backend.broadcast(raw)).toBe(txid);
    await sleep(300);
    expect(await node.rpc.getRawMempool()).not.toContain(txid);
    // Beside a healthy endpoint, the same transaction is sent through both and reaches the node.
    expect(await backendOver([dropper.url, healthy.url]).backend.broadcast(raw)).toBe(txid);
    expect(await node.rpc.getRawMempool()).toContain(txid);
    expect(dropper.counts().sendrawtransaction).toMatchObject({ dropped: 2, forwarded: 0 });
    expect(healthy.counts().sendrawtransaction).toMatchObject({ forwarded: 1 });
  });
});
