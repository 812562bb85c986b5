/**
 * The runner's glue between rounds, on in-memory chains and a real journal: what reaches the executors
 * when many orders arrive at once, when pricing's verdict changes between rounds, when the service
 * names one source twice or rewrites an order, and when building fails.
 */
import { describe, expect, it } from "vitest";
import type { HtlcLock } from "../../../src/chains/chain.js";
import type { Order } from "../../../src/orderbook/types.js";
import type { OrderAmounts } from "../../../src/pricing/order-check.js";
import { fundedSource, lock, NOW_MS, SECRET, SOLVER, USER } from "../../support/order-fixture.js";
import { ChainShowsItError } from "./fake-chain.js";
import { addOrder, ETH, harness, USDC, type Harness } from "./runner-harness.js";
const decision = (h: Harness, order: Order) => h.journal.lastDecision(order.order_id);

describe("runner: many orders in one round", () => {
  it("does not read again an order it settled, while the service still lists it", async () => {
    const h = harness();
    const [settled, open] = [addOrder(h, 0), addOrder(h, 1)];
    h.journal.upsertOrder(settled);
    h.journal.markOrderDone(settled.order_id);
    await h.runner.tick();
    expect(h.source.readerCalls).not.toContain(`read:${settled.source_swap.swap_id}`);
    expect(h.source.readerCalls).toContain(`read:${open.source_swap.swap_id}`);
  });

  it("reads an unlisted order until the service says it is redeemed or refunded, then keeps that copy", async () => {
    const h = harness();
    const [redeemed, refunded, expired] = [addOrder(h, 0), addOrder(h, 1), addOrder(h, 2)];
    await h.runner.tick();
    for (const order of [redeemed, refunded, expired]) h.unlisted.add(order.order_id);
    redeemed.status = "Redeemed";
    refunded.status = "Refunded";
    expired.status = "Expired";
    await h.runner.tick();
    await h.runner.tick();
    await h.runner.tick();
    const readsOf = (order: Order) => h.orderReads.filter((id) => id === order.order_id).length;
    expect([readsOf(redeemed), readsOf(refunded)]).toEqual([1, 1]);
    // Expired is not the end at the service: it still records a refund or a redeem.
    expect(readsOf(expired)).toBe(3);
    expect(h.journal.orderSnapshot(redeemed.order_id)?.status).toBe("Redeemed");
    expect(h.journal.activeOrderIds()).toEqual(
      expect.arrayContaining([redeemed.order_id, refunded.order_id, expired.order_id]),
    );
  });

  it("does not read again an order first journaled after its listing began, as the scout's finds are", async () => {
    const h = harness();
    const order = addOrder(h, 0);
    h.unlisted.add(order.order_id);
    h.journal.upsertOrder(order, NOW_MS + 10);
    await h.runner.tick();
    expect(h.orderReads).toEqual([]);
    h.clockMs = NOW_MS + 20;
    await h.runner.tick();
    expect(h.orderReads).toEqual([order.order_id]);
  });

  it("reads each chain's tip once, after announcing every HTLC the round will read", async () => {
    const h = harness();
    const orders = Array.from({ length: 4 }, (_, i) => addOrder(h, i));
    await h.runner.tick();
    const calls = h.source.readerCalls;
    expect(calls.filter((c) => c === "tip")).toHaveLength(1);
    const announced = calls.findIndex((c) => c.startsWith("expect:"));
    const firstRead = calls.findIndex((c) => c.startsWith("read:"));
    expect(announced).toBeGreaterThanOrEqual(0);
    expect(announced).toBeLessThan(firstRead);
    for (const order of orders) expect(calls[announced]).toContain(order.source_swap.swap_id);
  });

  it("never promises more inventory than there is: each fill is judged after the ones before it", async () => {
    const h = harness();
    h.destination.held.set(USDC, 3n * 990_000n + 500n);
    const orders = Array.from({ length: 5 }, (_, i) => addOrder(h, i));
    await h.runner.tick();
    expect(h.fills()).toHaveLength(3);
    const waiting = orders.filter((o) => !h.fills().includes(o.order_id));
    for (const order of waiting) {
      expect(decision(h, order)).toMatchObject({ outcome: "wait", reason: "insufficient_inventory" });
    }
    // The next round sees the three fills as live attempts and still admits none of the others.
    await h.runner.tick();
    expect(h.fills()).toHaveLength(3);
  });

  it("keeps the total in flight under the exposure limit across the round", async () => {
    const h = harness({ limits: { maxInFlightUsdCents: 2n * 99n + 50n } });
    for (let i = 0; i < 4; i++) addOrder(h, i);
    await h.runner.tick();
    expect(h.fills()).toHaveLength(2);
    expect(h.orders.map((o) => decision(h, o)?.reason).filter((r) => r === "exposure_limit")).toHaveLength(2);
  });

  it("stops token fills while the chain's fee coin is below its floor", async () => {
    const h = harness({ limits: { inventoryFloor: { [ETH]: 2n * 10n ** 18n } } });
    const order = addOrder(h, 1);
    await h.runner.tick();
    expect(h.fills()).toEqual([]);
    expect(decision(h, order)).toMatchObject({ outcome: "wait", reason: "insufficient_gas" });
  });

  it("does not count a fill against itself when a crash left it claimed but unsigned", async () => {
    const h = harness();
    h.destination.held.set(USDC, 990_000n);
    const order = addOrder(h, 1);
    h.destination.failNextBuild = new Error("node unreachable");
    await h.runner.tick();
    expect(h.journal.orderActions(order.order_id)[0]?.status).toBe("failed");
    await h.runner.tick();
    expect(h.fills()).toEqual([order.order_id]);
  });
});

describe("runner: an instant refund and a fill never both", () => {
  it("waits on passing refusals, refunds on a verdict, and never fills after", async () => {
    const h = harness({ sourceFamily: "bitcoin" });
    const order = addOrder(h, 1);
    h.quote = () => ({ ok: false, outcome: "wait", reason: "insufficient_inventory", detail: "low" });
    await h.runner.tick();
    expect(h.delivered).toEqual([]);
    expect(h.source.built).toEqual([]);

    h.quote = () => ({ ok: false, outcome: "refuse", reason: "price_moved", detail: "moved" });
    await h.runner.tick();
    expect(h.delivered).toEqual([order.order_id]);
    expect(h.source.built.flat().map((a) => a.kind)).toEqual(["instant_refund"]);

    // Prices come back: the order would pass every other rule now, but the user holds our half.
    h.quote = () => ({ ok: true });
    await h.runner.tick();
    await h.runner.tick();
    expect(h.fills()).toEqual([]);
    expect(decision(h, order)).toMatchObject({ outcome: "refuse", reason: "instant_refund_given" });
  });
});

describe("runner: an instant refund the solver sends itself", () => {
  it("broadcasts and follows it where the family's redeemer signature alone refunds", async () => {
    const h = harness({ sourceFamily: "solana" });
    const order = addOrder(h, 1);
    h.quote = () => ({ ok: false, outcome: "refuse", reason: "price_moved", detail: "moved" });
    await h.runner.tick();
    expect(h.delivered).toEqual([]);
    expect(h.source.built.flat().map((a) => a.kind)).toEqual(["instant_refund"]);
    expect(h.source.broadcasts).toHaveLength(1);
    const action = h.journal.orderActions(order.order_id).find((a) => a.kind === "instant_refund")!;
    expect(h.journal.attemptsOfAction(action.id).map((a) => a.state)).toEqual(["broadcast"]);

    // Followed like any transaction to its chain's finality depth, never handed to the service.
    h.source.statusOf = () => ({ state: "confirmed", blockHeight: 120n, confirmations: 3 });
    await h.runner.tick();
    expect(h.delivered).toEqual([]);
    expect(h.journal.action(action.id).status).toBe("confirmed");
    expect(h.fills()).toEqual([]);
  });
});

describe("runner: a service that lies", () => {
  it("fills one order per source, however many orders name it", async () => {
    const h = harness({ sourceFamily: "bitcoin" });
    const first = addOrder(h, 1);
    const second = addOrder(h, 2, (o) => (o.source_swap.swap_id = first.source_swap.swap_id));
    await h.runner.tick();
    expect(h.fills()).toEqual([first.order_id]);
    expect(decision(h, second)).toMatchObject({ outcome: "refuse", reason: "source_backs_another_order" });
    // No instant refund of the shared source either: it backs the first order's fill.
    await h.runner.tick();
    expect(h.delivered).toEqual([]);
  });

  it("keeps the terms it filled on when the service rewrites the order afterwards", async () => {
    const h = harness();
    const order = addOrder(h, 1);
    const filledSource = order.source_swap.swap_id;
    await h.runner.tick();
    expect(h.fills()).toEqual([order.order_id]);
    const fill = h.destination.built[0]![0]!;
    h.destination.htlcs.set(fill.params.swapId, {
      locks: [
        lock({
          id: fill.params.swapId,
          value: 990_000n,
          height: 106n,
          spend: { kind: "redeem", txid: "r", height: 107n },
        }),
      ],
      onChain: { initiator: SOLVER, redeemer: USER, timelock: 600n, amount: 990_000n },
      secret: SECRET,
    });
    // The service now names another source HTLC (one the attacker controls) and another amount.
    const listed = h.orders[0]!;
    listed.source_swap.swap_id = "99".repeat(32);
    listed.source_swap.amount = "1";
    h.source.htlcs.set("99".repeat(32), fundedSource(listed));
    await h.runner.tick();
    const redeems = h.source.built.flat().filter((a) => a.kind === "redeem");
    expect(redeems).toHaveLength(1);
    expect(redeems[0]?.params.swapId).toBe(filledSource);
    expect(redeems[0]?.params.amount).toBe(1_000_000n);
  });

  it("prices a fill tried again by the terms it froze, not by amounts the service states afterwards", async () => {
    const h = harness();
    const priced: OrderAmounts[] = [];
    // The market: at most `rate` percent of the source's units in the destination.
    let rate = 99n;
    h.quote = (amounts) => {
      priced.push(amounts);
      return amounts.toAmount * 100n <= amounts.fromAmount * rate
        ? { ok: true }
        : { ok: false, outcome: "refuse", reason: "price_moved", detail: "asks more than the quote" };
    };
    const good = addOrder(h, 1, (o) => (o.destination_swap.amount = "900000"));
    const lossy = addOrder(h, 2);
    const termsOf = (o: Order): OrderAmounts => ({
      fromAsset: o.source_swap.asset,
      toAsset: o.destination_swap.asset,
      fromAmount: BigInt(o.source_swap.amount),
      toAmount: BigInt(o.destination_swap.amount),
    });
    const frozen = [termsOf(good), termsOf(lossy)];
    // Both fills are claimed in one batch (their terms frozen), which cannot be built this round.
    h.destination.maxBatch = 50;
    h.destination.failNextBuild = new Error("node unreachable");
    await h.runner.tick();
    expect(h.journal.orderActions(good.order_id)[0]?.status).toBe("failed");
    expect(h.journal.orderActions(lossy.order_id)[0]?.status).toBe("failed");

    // The market falls: the good order's terms still pay, the lossy one's no longer do. The service
    // understates the good order's source (a fill that looks like a loss) and overstates the lossy one's.
    rate = 95n;
    h.orders[0]!.source_swap.amount = "1";
    h.orders[1]!.source_swap.amount = "100000000";
    priced.length = 0;
    await h.runner.tick();
    expect(priced).toEqual(frozen);
    expect(h.fills()).toEqual([good.order_id]);
    expect(h.destination.built.at(-1)?.map((a) => a.params.amount)).toEqual([900_000n]);
    expect(decision(h, lossy)).toMatchObject({ outcome: "refuse", reason: "price_moved" });
  });

  it("waits, and sends nothing, when processing an order fails unexpectedly", async () => {
    const h = harness();
    const order = addOrder(h, 1);
    h.quote = () => {
      throw new Error("pricing exploded");
    };
    await h.runner.tick();
    expect(h.fills()).toEqual([]);
    expect(decision(h, order)).toMatchObject({ outcome: "wait", reason: "processing_error" });
  });
});

describe("runner: a source redeem near its deadline", () => {
  it("may pay above the ceiling up to a share of the token it redeems, in the chain's own coin", async () => {
    const h = harness();
    // The family says which asset is its coin; the order's source is a token on that chain.
    h.source.feeAsset = "ethereum_localnet:eth";
    const order = addOrder(h, 1);
    await h.runner.tick();
    const fill = h.destination.built[0]![0]!;
    h.destination.htlcs.set(fill.params.swapId, {
      locks: [
        lock({
          id: fill.params.swapId,
          value: 990_000n,
          height: 106n,
          spend: { kind: "redeem", txid: "r", height: 107n },
        }),
      ],
      onChain: { initiator: SOLVER, redeemer: USER, timelock: 600n, amount: 990_000n },
      secret: SECRET,
    });
    // 300 blocks (300 s at the fastest) before the user could refund the source: inside the 600 s margin.
    h.source.tip = 7_000n;
    await h.runner.tick();
    const redeem = h.source.built.flat().find((a) => a.kind === "redeem" && a.orderId === order.order_id);
    expect(redeem?.mustConfirmByMs).toBe(NOW_MS + 300_000);
    // 1 USDC is 1/3000 ETH at the prices of now; 100 bps of it.
    const expected = { maxFee: 3_333_333_333_333n, reason: expect.stringContaining("100 bps") };
    expect(h.source.buildAllowances.at(-1)).toEqual(expected);
    // Still pending at the next round: re-priced at once, with the same allowance.
    await h.runner.tick();
    expect(h.source.allowances).toEqual([expected]);
  });
});

describe("runner: a service that is down", () => {
  it("keeps redeeming and refunding what it follows, from the journal and the chains", async () => {
    const h = harness();
    const redeemed = addOrder(h, 1);
    const expiring = addOrder(h, 2);
    await h.runner.tick();
    expect(h.fills().sort()).toEqual([redeemed.order_id, expiring.order_id].sort());
    const fillOf = (o: Order) =>
      h.destination.built.flat().find((a) => a.kind === "fill" && a.orderId === o.order_id)!;
    const fillLock = (o: Order, spend: HtlcLock["spend"]) =>
      lock({ id: fillOf(o).params.swapId, value: 990_000n, height: 106n, refundableAtHeight: 706n, spend });

    h.serviceDown = true;
    // The user redeems one fill (the secret is on the destination chain); the other is never redeemed.
    h.destination.htlcs.set(fillOf(redeemed).params.swapId, {
      locks: [fillLock(redeemed, { kind: "redeem", txid: "r", height: 110n })],
      onChain: { initiator: SOLVER, redeemer: USER, timelock: 600n, amount: 990_000n },
      secret: SECRET,
    });
    h.destination.htlcs.set(fillOf(expiring).params.swapId, {
      locks: [fillLock(expiring, null)],
      onChain: { initiator: SOLVER, redeemer: USER, timelock: 600n, amount: 990_000n },
      secret: null,
    });
    h.destination.tip = 800n;
    await h.runner.tick();
    expect(h.source.built.flat().map((a) => [a.kind, a.orderId])).toEqual([["redeem", redeemed.order_id]]);
    expect(
      h.destination.built
        .flat()
        .filter((a) => a.kind === "refund")
        .map((a) => a.orderId),
    ).toEqual([expiring.order_id]);
  });

  it("takes an order with a status it does not know like any other", async () => {
    const h = harness();
    const order = addOrder(h, 1, (o) => (o.status = "CounterPartyInitiated"));
    await h.runner.tick();
    expect(h.fills()).toEqual([order.order_id]);
  });
});

describe("runner: acting", () => {
  it("journals before it broadcasts, and marks a fill the chain already shows as satisfied", async () => {
    const h = harness();
    const order = addOrder(h, 1);
    h.destination.failNextBuild = new ChainShowsItError("order already initiated");
    await h.runner.tick();
    expect(h.journal.orderActions(order.order_id)[0]).toMatchObject({ kind: "fill", status: "confirmed" });
    expect(h.destination.broadcasts).toEqual([]);

    const other = addOrder(h, 2);
    await h.runner.tick();
    const [attempt] = h.journal.attemptsOfAction(h.journal.orderActions(other.order_id)[0]!.id);
    expect(attempt).toMatchObject({ state: "broadcast", txHash: h.destination.broadcasts[0] });
  });
});

describe("runner: how fresh a read must be", () => {
  it("takes the latest view of a destination nothing was signed for, and reads it fresh once a fill is", async () => {
    const h = harness();
    const order = addOrder(h, 1);
    const destination = order.destination_swap.swap_id;
    await h.runner.tick();
    expect(h.destination.latestViewReads).toEqual([destination]);
    expect(h.fills()).toEqual([order.order_id]);
    // The fill is signed and sent: from now on its destination is read fresh, and the source always is.
    await h.runner.tick();
    expect(h.destination.readerCalls.filter((c) => c === `read:${destination}`).length).toBeGreaterThan(1);
    expect(h.destination.latestViewReads).toEqual([destination]);
    expect(h.source.latestViewReads).toEqual([]);
  });

  it("names, once it filled, its fill on the destination and the source locks the fill relied on", async () => {
    const h = harness();
    const order = addOrder(h, 1);
    const source = order.source_swap.swap_id;
    const destination = order.destination_swap.swap_id;
    const relied = h.source.htlcs.get(source)?.locks.map((lock) => lock.id) ?? [];
    expect(relied.length).toBeGreaterThan(0);
    await h.runner.tick();
    expect(h.fills()).toEqual([order.order_id]);
    h.source.knownLocksNamed.length = 0;
    h.destination.knownLocksNamed.length = 0;
    await h.runner.tick();
    // However the addresses are flooded after the fill, these stay readable (HtlcReadOptions.lockIds).
    expect(h.source.knownLocksNamed.filter((r) => r.swapId === source).at(-1)?.lockIds).toEqual(relied);
    expect(h.destination.knownLocksNamed.filter((r) => r.swapId === destination).at(-1)?.ownTxids).toEqual(
      h.journal.actionTxids(order.order_id, "fill"),
    );
  });

  it("lets a read answer from a view begun after the tip it is paired with, never from one begun before", async () => {
    const h = harness();
    const order = addOrder(h, 1);
    const lock = unfunded(h, order);
    h.runner.start();
    await until(() => h.runner.lastTickMs > 0, "the first round");
    const lockHeight = h.source.tip + 1n;
    lock();
    await until(() => h.fills().length === 1, "the fill");
    await h.runner.stop();
    // Each read allows a view begun after a tip was answered (the one it is paired with) and before the
    // read was asked; the read that saw the lock allows none older than the first tip showing its block.
    const reads = h.source.viewsAllowed.filter((r) => r.swapId === order.source_swap.swap_id);
    const first = h.source.tipsAnswered[0]!.at;
    for (const { viewAfter, askedAt } of reads) {
      expect(viewAfter).toBeGreaterThanOrEqual(first);
      expect(viewAfter).toBeLessThanOrEqual(askedAt);
    }
    const lockSeen = h.source.tipsAnswered.find((t) => t.height === lockHeight)!.at;
    expect(reads.at(-1)!.viewAfter).toBeGreaterThanOrEqual(lockSeen);
  });
});

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Whether a read of the order's source HTLC has begun. */
function readStarted(h: Harness, order: Order): boolean {
  return h.source.readerCalls.includes(`read:${order.source_swap.swap_id}`);
}

/** Takes an order's source HTLC off the chain; the function returned locks it in the chain's next block. */
function unfunded(h: Harness, order: Order): () => void {
  const swapId = order.source_swap.swap_id;
  const funded = h.source.htlcs.get(swapId);
  h.source.htlcs.delete(swapId);
  return () => {
    if (funded) h.source.htlcs.set(swapId, funded);
    h.source.htlcEvents.set(h.source.tip + 1n, [swapId]);
    h.source.tip += 1n;
  };
}

/** An order the first round saw unfunded; its source then locked in the chain's next block. */
async function lockedAfterFirstRound(h: Harness): Promise<Order> {
  const order = addOrder(h, 1);
  const lock = unfunded(h, order);
  h.runner.start();
  await until(() => h.runner.lastTickMs > 0, "the first round");
  expect(decision(h, order)).toMatchObject({ outcome: "wait", reason: "source_not_initiated" });
  lock();
  return order;
}

describe("runner: acting on a chain's new block, between rounds", () => {
  it("fills an order in the block after its source is locked, rounds an hour apart", async () => {
    const h = harness({ watchIntervalMs: 5 });
    const order = await lockedAfterFirstRound(h);
    await until(() => h.fills().length > 0, "the fill");
    await h.runner.stop();
    expect(h.fills()).toEqual([order.order_id]);
    expect(h.source.eventRanges.at(-1)).toEqual([106n, 106n]);
  });

  it("on a chain that cannot tell which HTLCs changed, processes the orders waiting on it at its next block", async () => {
    const h = harness({ sourceFamily: "bitcoin", watchIntervalMs: 5 });
    h.source.eventsUnknown = true;
    const order = await lockedAfterFirstRound(h);
    await until(() => h.fills().length > 0, "the fill");
    await h.runner.stop();
    expect(h.fills()).toEqual([order.order_id]);
  });

  it("leaves an order waiting for its deposit alone at blocks that do not pay it", async () => {
    const h = harness({ sourceFamily: "bitcoin", watchIntervalMs: 5 });
    const order = addOrder(h, 1);
    const pay = unfunded(h, order);
    h.runner.start();
    await until(() => h.runner.lastTickMs > 0, "the first round");
    const swapId = order.source_swap.swap_id;
    const reads = () => h.source.readerCalls.filter((call) => call === `read:${swapId}`).length;
    const readsAfterRound = reads();
    for (let i = 0; i < 3; i++) {
      const next = h.source.tip + 1n;
      h.source.htlcEvents.set(next, ["ee".repeat(32)]);
      h.source.tip = next;
      await until(() => h.source.eventRanges.some(([, to]) => to === next), `block ${next} looked into`);
    }
    // No pass read it at those blocks: the one read after the round is the one at the paying block.
    pay();
    await until(() => h.fills().length > 0, "the fill");
    await h.runner.stop();
    expect(reads()).toBe(readsAfterRound + 1);
    expect(h.fills()).toEqual([order.order_id]);
  });

  it("processes an order counting its source's confirmations at each new block, though its HTLC is unchanged", async () => {
    const h = harness({ watchIntervalMs: 5 });
    const order = addOrder(h, 1, (o) => {
      o.source_swap.required_confirmations = 3;
    });
    // Mined in the tip's block: one confirmation of three.
    const state = h.source.htlcs.get(order.source_swap.swap_id)!;
    state.locks = state.locks.map((l) => ({ ...l, height: h.source.tip }));
    h.runner.start();
    await until(() => h.runner.lastTickMs > 0, "the first round");
    expect(decision(h, order)).toMatchObject({ outcome: "wait", reason: "source_unconfirmed" });
    const reads = () => h.source.readerCalls.filter((call) => call === `read:${order.source_swap.swap_id}`);
    const readsAfterRound = reads().length;
    h.source.tip += 1n;
    await until(() => reads().length > readsAfterRound, "a read at the second confirmation");
    expect(h.fills()).toEqual([]);
    h.source.tip += 1n;
    await until(() => h.fills().length > 0, "the fill");
    await h.runner.stop();
    expect(h.fills()).toEqual([order.order_id]);
  });

  it("never fills twice when a round and the watch want the same order at once", async () => {
    const h = harness({ watchIntervalMs: 5 });
    // A slow build keeps the first pass between claiming the fill and signing it.
    h.destination.buildDelayMs = 300;
    const order = await lockedAfterFirstRound(h);
    const rounds = [0, 50, 100, 150, 200].map(
      (ms) => new Promise<void>((resolve) => setTimeout(() => void h.runner.tick().then(resolve), ms)),
    );
    await Promise.all(rounds);
    await until(() => h.fills().length > 0, "the fill");
    // Stopping waits for every pass and send still under way: a second fill would be built by then.
    await h.runner.stop();
    expect(h.fills()).toEqual([order.order_id]);
    expect(h.journal.orderActions(order.order_id).filter((a) => a.kind === "fill")).toHaveLength(1);
  });

  it("fills an order whose lock lands while a round holds it with a read from before the lock", async () => {
    const h = harness({ watchIntervalMs: 5 });
    const order = addOrder(h, 1);
    const lock = unfunded(h, order);
    h.source.slowReads.set(order.source_swap.swap_id, 1_500);
    h.runner.start();
    // The first round is reading the unfunded HTLC when the lock lands in the chain's next block.
    await until(() => readStarted(h, order), "the first round's read of the source");
    lock();
    await until(() => h.runner.lastTickMs > 0, "the first round");
    expect(h.fills()).toEqual([]);
    // The round saw no deposit; the block that held one is acted on once the round lets the order go.
    await until(() => h.fills().length > 0, "the fill");
    await h.runner.stop();
    expect(h.fills()).toEqual([order.order_id]);
  });

  it("watches a new order's HTLCs from its first plan on, so a lock landing during that plan is acted on", async () => {
    const h = harness({ watchIntervalMs: 5 });
    const first = await lockedAfterFirstRound(h);
    await until(() => h.fills().length > 0, "the first order's fill");
    const late = addOrder(h, 2);
    const lock = unfunded(h, late);
    h.source.slowReads.set(late.source_swap.swap_id, 1_500);
    const round = h.runner.tick();
    await until(() => readStarted(h, late), "the round's read of the late order's source");
    lock();
    await round;
    expect(h.fills()).toEqual([first.order_id]);
    await until(() => h.fills().includes(late.order_id), "the late order's fill");
    await h.runner.stop();
    expect(h.fills()).toEqual([first.order_id, late.order_id]);
  });

  it("looks for new orders again while the new orders it found last are still being read", async () => {
    const h = harness({ watchIntervalMs: 5, pollIntervalMs: 50 });
    // Only the scout finds new orders here: the round's listing fails.
    h.fullListingDown = true;
    const slow = addOrder(h, 1);
    h.source.slowReads.set(slow.source_swap.swap_id, 3_000);
    h.runner.start();
    await until(() => h.journal.isKnownOrder(slow.order_id), "the scout to find the slow order");
    const next = addOrder(h, 2);
    await until(() => h.fills().includes(next.order_id), "the next order's fill");
    expect(h.fills()).toEqual([next.order_id]);
    await until(() => h.fills().includes(slow.order_id), "the slow order's fill");
    await h.runner.stop();
    expect(h.fills()).toEqual([next.order_id, slow.order_id]);
  });

  it("fills an order listed while a long round is still reading the others", async () => {
    const h = harness({ watchIntervalMs: 5, pollIntervalMs: 50 });
    const slow = addOrder(h, 1);
    h.source.slowReads.set(slow.source_swap.swap_id, 3_000);
    h.runner.start();
    await until(() => readStarted(h, slow), "the round's read of the slow order");
    const listedLate = addOrder(h, 2);
    await until(() => h.fills().includes(listedLate.order_id), "the late order's fill");
    expect(h.runner.lastTickMs).toBe(0); // the first round is still reading the slow order
    await h.runner.stop();
    expect(h.fills().sort()).toEqual([slow.order_id, listedLate.order_id].sort());
  });

  it("sends in one transaction the fills of orders a round lets go one by one after their lock", async () => {
    const h = harness({ watchIntervalMs: 5 });
    h.destination.maxBatch = 50;
    const orders = [1, 2, 3].map((i) => addOrder(h, i));
    const locks = orders.map((order) => unfunded(h, order));
    // The first round reads each unfunded HTLC a little longer than the one before.
    orders.forEach((order, i) => h.source.slowReads.set(order.source_swap.swap_id, 300 + 30 * i));
    h.runner.start();
    await until(
      () => orders.every((order) => readStarted(h, order)),
      "the round's reads of the three sources",
    );
    for (const lock of locks) lock();
    // The round saw no deposits and lets each order go as its read ends; the watch's block is acted on
    // for each as it is let go.
    await until(() => h.fills().length === orders.length, "the three fills");
    await h.runner.stop();
    expect(h.destination.built.filter((tx) => tx.some((a) => a.kind === "fill"))).toHaveLength(1);
    expect(h.fills().sort()).toEqual(orders.map((o) => o.order_id).sort());
  });

  it("sends in one transaction the fills of a block's orders whose reads end just after the side window", async () => {
    const h = harness({ watchIntervalMs: 5 });
    h.destination.maxBatch = 50;
    const orders = [1, 2].map((i) => addOrder(h, i));
    const swapIds = orders.map((o) => o.source_swap.swap_id);
    const funded = swapIds.map((swapId) => h.source.htlcs.get(swapId)!);
    for (const swapId of swapIds) h.source.htlcs.delete(swapId);
    h.runner.start();
    await until(() => h.runner.lastTickMs > 0, "the first round");
    // One block locks both; the second order's read ends 130 ms after the first's, past the 100 ms the
    // side window gathers for, within the 200 ms a block's pass may hold it.
    h.source.slowReads.set(swapIds[1]!, 130);
    swapIds.forEach((swapId, i) => h.source.htlcs.set(swapId, funded[i]!));
    h.source.htlcEvents.set(h.source.tip + 1n, swapIds);
    h.source.tip += 1n;
    await until(() => h.fills().length === orders.length, "both fills");
    await h.runner.stop();
    expect(h.destination.built.filter((tx) => tx.some((a) => a.kind === "fill"))).toHaveLength(1);
  });

  it("acts on a chain's next block while the orders of the block before are still being read", async () => {
    const h = harness({ watchIntervalMs: 5 });
    const slow = addOrder(h, 1);
    const next = addOrder(h, 2);
    const lockSlow = unfunded(h, slow);
    const lockNext = unfunded(h, next);
    h.runner.start();
    await until(() => h.runner.lastTickMs > 0, "the first round");
    h.source.slowReads.set(slow.source_swap.swap_id, 3_000);
    lockSlow();
    await until(
      () => h.source.eventRanges.some(([, to]) => to === h.source.tip),
      "the watch to see the block",
    );
    lockNext();
    await until(() => h.fills().includes(next.order_id), "the next block's fill");
    expect(h.fills()).toEqual([next.order_id]);
    await h.runner.stop();
    expect(h.fills().sort()).toEqual([slow.order_id, next.order_id].sort());
  });

  it("survives a journal read that fails while it acts on a new block, and fills at the next", async () => {
    const h = harness({ watchIntervalMs: 5 });
    const order = await lockedAfterFirstRound(h);
    // The one journal read of a pass (Journal.orderView) fails.
    const orderView = h.journal.orderView.bind(h.journal);
    let failures = 0;
    h.journal.orderView = () => {
      failures++;
      throw new Error("database is locked");
    };
    await until(() => failures > 0, "the watch to act on the lock's block");
    h.journal.orderView = orderView;
    expect(h.fills()).toEqual([]);
    h.source.htlcEvents.set(h.source.tip + 1n, [order.source_swap.swap_id]);
    h.source.tip += 1n;
    await until(() => h.fills().length > 0, "the fill at the next block");
    await h.runner.stop();
    expect(h.fills()).toEqual([order.order_id]);
  });
});
