/**
 * The EVM client over two endpoints on a real anvil, each behind the fault proxy: failing calls, a
 * stale head, dropped sends, hangs and rate limits. What the client answers is checked against anvil.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keccak256, parseEther, TransactionNotFoundError } from "viem";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { createEvmRpc } from "../../../../src/chains/evm/client.js";
import { mineBlocks } from "../../../support/localnet.js";
import type { FaultConfig } from "../../../support/fault-proxy.js";
import { signedTransfer, sleep, startEvmRpcFixture, type EvmRpcFixture } from "./evm-support.js";

let fx: EvmRpcFixture;

beforeAll(async () => {
  fx = await startEvmRpcFixture(31_450);
});

afterAll(async () => {
  await fx?.stop();
});

/** 30 % of calls fail, in every way that does not take a timeout. */
const FLAKY: Partial<FaultConfig> = {
  failRate: 0.3,
  faults: { http500: 1, http429: 1, rpcError: 1, reset: 1 },
  retryAfter: { seconds: 1, form: "seconds" },
};

const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

describe("EVM reads and sends through faulty endpoints", () => {
  it("with 30% of calls failing and one endpoint stale, reads are current and sends reach the chain", async () => {
    const stale = await fx.proxy(FLAKY, 11);
    const healthy = await fx.proxy(FLAKY, 12);
    const { client, pool } = createEvmRpc(fx.config([stale.url, healthy.url]));
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(
      await fx.direct.getBlockNumber({ cacheTime: 0 }),
    );
    stale.freezeHead(Number(await fx.direct.getBlockNumber({ cacheTime: 0 })));
    await mineBlocks(fx.anvil.rpcUrl, 10);
    await sleep(300); // one head refresh interval
    for (let i = 0; i < 15; i++) {
      expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(
        await fx.direct.getBlockNumber({ cacheTime: 0 }),
      );
    }
    const recipient = freshAddress();
    let sent = 0n;
    for (let i = 0; i < 4; i++) {
      const value = parseEther("0.01") * BigInt(i + 1);
      const hash = await client.sendRawTransaction({
        serializedTransaction: await signedTransfer(fx, 5, recipient, value),
      });
      sent += value;
      // The receipt is read through the pool too: the stale endpoint would not know it.
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100, timeout: 20_000 });
      expect(receipt.status).toBe("success");
      expect(await client.getBalance({ address: recipient })).toBe(sent);
    }
    expect(await fx.direct.getBalance({ address: recipient })).toBe(sent);
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(
      await fx.direct.getBlockNumber({ cacheTime: 0 }),
    );
    // The faults happened, and the stale endpoint was found out rather than believed.
    expect(stale.totals().faults + healthy.totals().faults).toBeGreaterThan(5);
    expect(stale.totals().stale).toBeGreaterThan(0);
    const [staleStatus] = pool.status();
    expect(staleStatus).toMatchObject({ current: false });
    expect(staleStatus?.lagBlocks).toBeGreaterThanOrEqual(10);
  });

  it("does not lose a transaction when one endpoint drops sends and another is healthy", async () => {
    const dropper = await fx.proxy({ dropSends: true }, 21);
    const healthy = await fx.proxy({}, 22);
    const raw = await signedTransfer(fx, 6, freshAddress(), parseEther("0.5"));
    const hash = keccak256(raw);
    // Alone, the dropping endpoint says "sent" and the chain never sees the transaction.
    const alone = createEvmRpc(fx.config([dropper.url])).client;
    expect(await alone.sendRawTransaction({ serializedTransaction: raw })).toBe(hash);
    await sleep(500);
    await expect(fx.direct.getTransaction({ hash })).rejects.toBeInstanceOf(TransactionNotFoundError);
    // Beside a healthy endpoint, the same transaction is sent through both and lands.
    const both = createEvmRpc(fx.config([dropper.url, healthy.url])).client;
    expect(await both.sendRawTransaction({ serializedTransaction: raw })).toBe(hash);
    const receipt = await fx.direct.waitForTransactionReceipt({
      hash,
      pollingInterval: 100,
      timeout: 10_000,
    });
    expect(receipt.status).toBe("success");
    expect(dropper.counts().eth_sendRawTransaction).toMatchObject({ dropped: 2, forwarded: 0 });
    expect(healthy.counts().eth_sendRawTransaction).toMatchObject({ forwarded: 1 });
  });

  it("times out a hanging endpoint and reads from the other", async () => {
    const hanging = await fx.proxy({ failRate: 1, faults: { hang: 1 } }, 31);
    const healthy = await fx.proxy({}, 32);
    const { client } = createEvmRpc(fx.config([hanging.url, healthy.url]));
    const started = Date.now();
    for (let i = 0; i < 10; i++) {
      expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(
        await fx.direct.getBlockNumber({ cacheTime: 0 }),
      );
    }
    // One timeout (1 s) while heads were first read; after that the hanging endpoint is passed over.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(hanging.totals().byFault.hang).toBeLessThanOrEqual(3);
  });

  it("leaves a rate-limited endpoint alone for as long as its Retry-After date says", async () => {
    const limited = await fx.proxy(
      { failRate: 1, faults: { http429: 1 }, retryAfter: { seconds: 3, form: "date" } },
      41,
    );
    const slower = await fx.proxy({ delayMs: 120 }, 42);
    const { client, pool } = createEvmRpc(fx.config([limited.url, slower.url]));
    const until = Date.now() + 1_500;
    while (Date.now() < until) {
      expect(await client.getChainId()).toBe(fx.anvil.chainId);
      await sleep(100);
    }
    // Asked once (for its head or the first read), then left alone through the cool-down.
    expect(limited.totals().calls).toBe(1);
    expect(pool.status()[0]).toMatchObject({ coolReason: "rate-limited" });
    limited.configure({ failRate: 0 });
    await sleep(2_000);
    for (let i = 0; i < 5; i++) await client.getChainId();
    expect(limited.totals().forwarded).toBeGreaterThan(0);
  });
});
