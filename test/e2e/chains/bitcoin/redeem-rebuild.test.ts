/**
 * A batched redeem that loses one of its inputs: the user refunds one source (past its lock) at a higher
 * fee, evicting the solver's batch from the mempool. The follower must see the batch can never be mined,
 * give it up, and the next build, spending what is left, must be mined: one bad output never holds the
 * rest of a batch.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Transaction } from "bitcoinjs-lib";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToTxid } from "../../../../src/chains/bitcoin/bytes.js";
import { buildRefundTx } from "../../../../src/chains/bitcoin/htlc-spend.js";
import { usableLocks } from "../../../../src/chains/htlc-locks.js";
import { Journal } from "../../../../src/journal/journal.js";
import { followAttempts } from "../../../../src/solver/attempt-follower.js";
import { silentObserver } from "../../../../src/solver/observer.js";
import { claimOk } from "../../../support/journal-claims.js";
import { action, htlcParams, newSecret, startBitcoinEnv, userFunds, type BitcoinEnv } from "./support.js";

let env: BitcoinEnv;
let journal: Journal;

beforeAll(async () => {
  env = await startBitcoinEnv();
  journal = new Journal(join(mkdtempSync(join(tmpdir(), "rebuild-")), "journal.sqlite"));
});

afterAll(async () => {
  journal?.close();
  await env?.stop();
});

describe("a redeem batch whose input is spent by someone else", () => {
  it("is given up and built again without that input, and then mined", async () => {
    const short = { ...newSecret(), params: htlcParams(env.user.key, env.solverKey, "", 60_000n, 2n) };
    short.params.secretHash = short.secretHash;
    const long = { ...newSecret(), params: htlcParams(env.user.key, env.solverKey, "", 70_000n, 144n) };
    long.params.secretHash = long.secretHash;
    const reader = env.executor.reader;
    await userFunds(env, [
      { script: reader.htlcOf(short.params).outputScript, value: 60_000n },
      { script: reader.htlcOf(long.params).outputScript, value: 70_000n },
    ]);
    await env.mine(2); // the short source can be refunded in the next block

    const requestOf = async (source: typeof short) => {
      const state = await reader.readHtlc(source.params);
      const locks = usableLocks(state, BigInt(await env.tip()), 1).map((l) => l.id);
      return { ...action("redeem", source.params, source.secret), locks };
    };
    const requests = [await requestOf(short), await requestOf(long)];
    const claimed = requests.map((request) => claimOk(journal, request).action);
    const batch = await env.executor.build(requests);
    const attempt = journal.recordSigned(
      claimed.map((c) => c.id),
      batch,
    );
    await env.executor.broadcast(batch);
    journal.markBroadcast(attempt.id);

    // The user refunds the short source, paying enough to replace the solver's batch.
    const shortLock = (await reader.readHtlc(short.params)).locks[0]!;
    const [txid, vout] = shortLock.id.split(":");
    const refund = buildRefundTx(
      [{ htlc: reader.htlcOf(short.params), txid: txid!, vout: Number(vout), value: shortLock.value }],
      env.user.key,
      env.user.wallet.outputScript,
      20n,
    );
    await env.rpc.sendRawTransaction(refund.tx.toHex());
    expect(await env.rpc.getRawMempool()).not.toContain(batch.txHash);

    const registry = new Map([
      [
        env.config.name,
        { config: env.config, reader, executor: env.executor, party: env.solverKey.xOnlyHex },
      ],
    ]);
    const ctx = {
      journal,
      orderbook: { instantRefund: () => Promise.reject(new Error("not used")) },
      observer: silentObserver,
      logger: pino({ level: "silent" }),
      urgencyMarginMs: 0,
      fillSafety: { recheck: () => Promise.resolve(null) },
      feeAllowance: () => Promise.resolve(undefined),
    };
    await followAttempts(registry, ctx);
    expect(journal.attempt(attempt.id)).toMatchObject({ state: "dropped" });
    expect(claimed.map((c) => journal.action(c.id).status)).toEqual(["failed", "failed"]);

    // Planned again from the chain: the short source is spent (its refund is in the mempool).
    const again = [await requestOf(short), await requestOf(long)].filter((r) => r.locks.length > 0);
    expect(again.map((r) => r.params.amount)).toEqual([70_000n]);
    const rebuilt = await env.executor.build(again);
    const inputs = Transaction.fromHex(rebuilt.raw).ins.map((i) => `${hashToTxid(i.hash)}:${i.index}`);
    expect(inputs).not.toContain(shortLock.id);
    await env.executor.broadcast(rebuilt);
    await env.mine(1);
    expect(
      await env.executor.txStatus({ ...attempt, txHash: rebuilt.txHash, raw: rebuilt.raw }, again),
    ).toMatchObject({
      state: "confirmed",
    });
    const longState = await reader.readHtlc(long.params);
    expect(longState.locks[0]?.spend).toMatchObject({ kind: "redeem", txid: rebuilt.txHash });
  });
});
