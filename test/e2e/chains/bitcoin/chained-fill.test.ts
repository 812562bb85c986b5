/**
 * A fill paid from the unconfirmed change of an earlier fill, the earlier one then cancelled (or bumped)
 * by the attempt follower: the replacement pays for the child it evicts, the child's change stops
 * counting at once, the child is given up only once the chain holds the replacement at finality depth
 * (never on the node's word), and its order's fill is then built again and lands. Both sides' balances
 * are read from the chain.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Transaction } from "bitcoinjs-lib";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionRequest } from "../../../../src/chains/chain.js";
import { hexToBytes } from "../../../../src/chains/bitcoin/bytes.js";
import { BitcoinExecutor } from "../../../../src/chains/bitcoin/executor.js";
import { buildRedeemTx } from "../../../../src/chains/bitcoin/htlc-spend.js";
import { inputOutpoints } from "../../../../src/chains/bitcoin/journal-outputs.js";
import { Journal, type ActionRow } from "../../../../src/journal/journal.js";
import { executeClaimed, type ExecutionContext } from "../../../../src/solver/action-executor.js";
import { followAttempts } from "../../../../src/solver/attempt-follower.js";
import { silentObserver } from "../../../../src/solver/observer.js";
import type { Decision } from "../../../../src/solver/plan-types.js";
import type { SolverChain } from "../../../../src/solver/solver-chain.js";
import { claimOk } from "../../../support/journal-claims.js";
import { bitcoinFeeOf } from "../../../support/memory-journal.js";
import { ASSET, action, htlcParams, newSecret, startBitcoinEnv, type BitcoinEnv } from "./support.js";
import type { BitcoinChainConfig } from "../../../../src/chains/bitcoin/config.js";

let env: BitcoinEnv;
let journal: Journal;
let config: BitcoinChainConfig;
let executor: BitcoinExecutor;
let chain: SolverChain;
/** Orders whose fill the follower finds no longer safe when it asks again. */
const unsafe = new Set<string>();
let ctx: ExecutionContext;

beforeAll(async () => {
  env = await startBitcoinEnv({ floor: 2, ceiling: 50 });
  journal = new Journal(join(mkdtempSync(join(tmpdir(), "chained-fill-")), "journal.sqlite"));
  // Two blocks to finality: the child is given up only once the replacement is two deep.
  config = { ...env.config, finalityDepth: 2 };
  executor = new BitcoinExecutor({ config, key: env.solverKey, backend: env.backend, journal });
  chain = { config, reader: executor.reader, executor, party: env.solverKey.xOnlyHex };
  ctx = {
    journal,
    orderbook: { instantRefund: () => Promise.reject(new Error("not used")) },
    observer: silentObserver,
    logger: pino({ level: "silent" }),
    urgencyMarginMs: 0,
    fillSafety: {
      recheck: (fill: ActionRow): Promise<Decision | null> =>
        Promise.resolve(
          unsafe.has(fill.orderId)
            ? { outcome: "refuse", reason: "source_refunded", detail: "the source can be refunded" }
            : null,
        ),
    },
    feeAllowance: () => Promise.resolve(undefined),
  };
});

afterAll(async () => {
  journal?.close();
  await env?.stop();
});

const registry = () => new Map([[config.name, chain]]);
const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);
const walletOnChain = async () =>
  sum((await env.backend.confirmedUnspent(executor.wallet.address)).map((u) => u.value));

interface Order {
  request: ActionRequest;
  secret: string;
  action: ActionRow;
}

/** Claims a fill of `amount` to the user and sends it as the runner would: journaled, then broadcast. */
async function fill(amount: bigint): Promise<Order> {
  const { secret, secretHash } = newSecret();
  const request = action("fill", htlcParams(env.solverKey, env.user.key, secretHash, amount));
  const claimed = claimOk(journal, request).action;
  await executeClaimed([{ request, action: claimed }], chain, ctx);
  return { request, secret, action: journal.action(claimed.id) };
}

const attemptsOf = (order: Order) => journal.attemptsOfAction(order.action.id);
const liveAttemptOf = (order: Order) => attemptsOf(order).find((a) => a.purpose === "action")!;

/** The earlier fill and a later one paid from its unconfirmed change; the follower's clock when the earlier is due. */
async function chainedFills(): Promise<{ parent: Order; child: Order; parentDueAt: number }> {
  const parent = await fill(300_000n);
  const child = await fill(120_000n);
  const [parentTx, childTx] = [liveAttemptOf(parent), liveAttemptOf(child)];
  expect(inputOutpoints(Transaction.fromHex(childTx.raw))).toEqual([`${parentTx.txHash}:1`]);
  expect(childTx.createdAtMs).toBeGreaterThan(parentTx.createdAtMs);
  // The parent has pended past `bumpAfterMs`; the child, journaled later, has not.
  return { parent, child, parentDueAt: childTx.createdAtMs + config.bumpAfterMs };
}

/** The child's order built again (the fill gate reuses a failed fill's row), sent, mined and followed. */
async function fillAgain(child: Order): Promise<string> {
  const row = journal.action(child.action.id);
  expect(row.status).toBe("failed");
  journal.retryAction(row.id, child.request);
  await executeClaimed([{ request: child.request, action: journal.action(row.id) }], chain, ctx);
  const rebuilt = attemptsOf(child).at(-1)!;
  expect(rebuilt.txHash).not.toBe(attemptsOf(child)[0]!.txHash);
  await env.mine(2);
  await followAttempts(registry(), ctx);
  expect(journal.action(row.id).status).toBe("confirmed");
  return rebuilt.txHash;
}

/** The user redeems a fill's HTLC with the secret: what it receives is on its side of the swap. */
async function userRedeems(order: Order, fundingTx: string): Promise<bigint> {
  const before = sum((await env.backend.confirmedUnspent(env.user.wallet.address)).map((u) => u.value));
  const htlc = executor.reader.htlcOf(order.request.params);
  const { tx, fee } = buildRedeemTx(
    [
      {
        htlc,
        txid: fundingTx,
        vout: 0,
        value: order.request.params.amount,
        secret: hexToBytes(order.secret),
      },
    ],
    env.user.key,
    env.user.wallet.outputScript,
    2n,
  );
  await env.rpc.sendRawTransaction(tx.toHex());
  await env.mine(1);
  const after = sum((await env.backend.confirmedUnspent(env.user.wallet.address)).map((u) => u.value));
  expect(after - before).toBe(order.request.params.amount - fee);
  return after - before;
}

describe("a fill chained on the change of a fill that is replaced", () => {
  it("the earlier fill cancelled: the child ends dead once the cancel is final, and its order is filled again", async () => {
    const startBalance = await walletOnChain();
    const { parent, child, parentDueAt } = await chainedFills();
    const parentTx = liveAttemptOf(parent);
    const childTx = liveAttemptOf(child);

    // The earlier fill is no longer safe: the follower cancels it, paying for the child it evicts too.
    unsafe.add(parent.request.orderId);
    await followAttempts(registry(), ctx, parentDueAt);
    const cancel = attemptsOf(parent).find((a) => a.purpose === "cancel");
    if (cancel === undefined) throw new Error("no cancel journaled");
    const evicted = bitcoinFeeOf(parentTx) + bitcoinFeeOf(childTx);
    expect(bitcoinFeeOf(cancel)).toBeGreaterThanOrEqual(
      evicted + BigInt(Transaction.fromHex(cancel.raw).virtualSize()),
    );
    expect(await env.rpc.getRawMempool()).toEqual([cancel.txHash]);
    // From now on the child's change is not the wallet's: only the cancel's output is.
    const cancelOutput = Transaction.fromHex(cancel.raw).outs[0]!.value;
    expect(await chain.executor.balance(ASSET)).toBe(cancelOutput);

    // The node no longer has the child, but nothing on the chain proves it dead yet: it is kept.
    await followAttempts(registry(), ctx);
    expect(journal.attempt(childTx.id).state).toBe("broadcast");
    expect(journal.action(child.action.id).status).toBe("broadcast");
    // One block: the cancel is mined, not final.
    await env.mine(1);
    await followAttempts(registry(), ctx);
    expect(journal.attempt(childTx.id).state).toBe("broadcast");

    // Two blocks: the cancel is final; the earlier fill failed for good, the child is dead, naming its parent.
    await env.mine(1);
    await followAttempts(registry(), ctx);
    expect(journal.action(parent.action.id)).toMatchObject({ status: "failed" });
    const dead = journal.action(child.action.id);
    expect(dead.status).toBe("failed");
    expect(dead.lastError).toContain(`input ${parentTx.txHash}:1 comes from ${parentTx.txHash}`);
    expect(dead.lastError).toContain(`is spent by ${cancel.txHash} (mined at`);
    expect(journal.attempt(childTx.id).state).toBe("dropped");
    expect(await chain.executor.balance(ASSET)).toBe(await walletOnChain());
    expect(await walletOnChain()).toBe(startBalance - bitcoinFeeOf(cancel));

    const refilled = await fillAgain(child);
    const refill = journal.attemptsOfAction(child.action.id).find((a) => a.txHash === refilled)!;
    expect((await chain.reader.readHtlc(parent.request.params)).locks).toEqual([]);
    const funded = await chain.reader.readHtlc(child.request.params);
    expect(funded.locks.map((l) => [l.fundingTx, l.value])).toEqual([[refilled, 120_000n]]);
    expect(await chain.executor.balance(ASSET)).toBe(await walletOnChain());
    expect(await walletOnChain()).toBe(startBalance - bitcoinFeeOf(cancel) - 120_000n - bitcoinFeeOf(refill));
    await userRedeems(child, refilled);
  });

  it("the earlier fill bumped and the bump mined: the child ends dead, and its order is filled again", async () => {
    const startBalance = await walletOnChain();
    const { parent, child, parentDueAt } = await chainedFills();
    const childTx = liveAttemptOf(child);

    await followAttempts(registry(), ctx, parentDueAt);
    const [original, bump] = attemptsOf(parent);
    if (bump === undefined) throw new Error("no bump journaled");
    expect(original!.state).toBe("replaced");
    expect(bitcoinFeeOf(bump)).toBeGreaterThanOrEqual(
      bitcoinFeeOf(original!) + bitcoinFeeOf(childTx) + BigInt(Transaction.fromHex(bump.raw).virtualSize()),
    );
    expect(await env.rpc.getRawMempool()).toEqual([bump.txHash]);
    const bumpChange = Transaction.fromHex(bump.raw).outs[1]!.value;
    expect(await chain.executor.balance(ASSET)).toBe(bumpChange);

    await env.mine(2);
    await followAttempts(registry(), ctx);
    expect(journal.action(parent.action.id).status).toBe("confirmed");
    const dead = journal.action(child.action.id);
    expect(dead.status).toBe("failed");
    expect(dead.lastError).toContain(`comes from ${original!.txHash}, which can never be mined`);
    expect(dead.lastError).toContain(`is spent by ${bump.txHash}`);
    expect(await chain.executor.balance(ASSET)).toBe(await walletOnChain());

    const refilled = await fillAgain(child);
    const refill = journal.attemptsOfAction(child.action.id).find((a) => a.txHash === refilled)!;
    expect(await walletOnChain()).toBe(
      startBalance - 300_000n - bitcoinFeeOf(bump) - 120_000n - bitcoinFeeOf(refill),
    );
    expect(await chain.executor.balance(ASSET)).toBe(await walletOnChain());
    await userRedeems(parent, bump.txHash);
    await userRedeems(child, refilled);
  });
});
