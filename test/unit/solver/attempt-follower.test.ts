import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { ActionRequest, FeeAllowance } from "../../../src/chains/chain.js";
import { CANCELLED, Journal, type ActionRow } from "../../../src/journal/journal.js";
import { followAttempts } from "../../../src/solver/attempt-follower.js";
import { bumpDue } from "../../../src/solver/attempt-replacement.js";
import { silentObserver } from "../../../src/solver/observer.js";
import type { Decision } from "../../../src/solver/plan-types.js";
import { claimOk } from "../../support/journal-claims.js";
import { evmTerms } from "../../support/memory-journal.js";
import { FakeChain } from "./fake-chain.js";
import { InputsGoneError } from "../../../src/chains/bitcoin/backend.js";
import { RpcUnavailableError } from "../../../src/chains/rpc/errors.js";

const opened: Journal[] = [];
afterEach(() => {
  for (const journal of opened.splice(0)) journal.close();
});

function journalWith(request: Partial<ActionRequest>): Pick<Journal, "action"> {
  return { action: () => ({ request }) as ActionRow };
}

describe("bumpDue", () => {
  const bumpAfterMs = 60_000;
  const created = 1_000_000;

  it("re-prices a transaction pending longer than bumpAfterMs", () => {
    const ctx = { journal: journalWith({}) as Journal, urgencyMarginMs: 600_000 };
    const attempt = { createdAtMs: created, actionIds: [1] };
    expect(bumpDue(attempt, ctx, bumpAfterMs, created + 59_000)).toBe(false);
    expect(bumpDue(attempt, ctx, bumpAfterMs, created + 61_000)).toBe(true);
  });

  it("re-prices at once when an action must be mined within the urgency margin", () => {
    const now = created + 1_000;
    const urgent = {
      journal: journalWith({ mustConfirmByMs: now + 300_000 }) as Journal,
      urgencyMarginMs: 600_000,
    };
    const relaxed = {
      journal: journalWith({ mustConfirmByMs: now + 900_000 }) as Journal,
      urgencyMarginMs: 600_000,
    };
    const attempt = { createdAtMs: created, actionIds: [1] };
    expect(bumpDue(attempt, urgent, bumpAfterMs, now)).toBe(true);
    expect(bumpDue(attempt, relaxed, bumpAfterMs, now)).toBe(false);
  });
});

function ctxOf(journal: Journal) {
  return {
    journal,
    orderbook: { instantRefund: () => Promise.reject(new Error("not used")) },
    observer: silentObserver,
    logger: pino({ level: "silent" }),
    urgencyMarginMs: 0,
    fillSafety: { recheck: () => Promise.resolve(null) },
    feeAllowance: () => Promise.resolve(undefined),
  };
}

/** A redeem of a source on the EVM chain the follower tests use. */
function redeemRequest(orderId: string, swapId: string): ActionRequest {
  return {
    kind: "redeem",
    orderId,
    params: {
      chain: "ethereum_localnet",
      asset: "ethereum_localnet:usdc",
      swapId,
      initiator: "0xa1",
      redeemer: "0xb2",
      secretHash: "cd".repeat(32),
      timelock: 600n,
      amount: 1_000n,
    },
    secret: "11".repeat(32),
  };
}

/** A fresh journal and one fake EVM chain, as the follower's registry holds it. */
function followerChain() {
  const journal = new Journal(join(mkdtempSync(join(tmpdir(), "follower-")), "journal.sqlite"));
  opened.push(journal);
  const chain = new FakeChain("ethereum_localnet", "evm", () => journal);
  const registry = new Map([[chain.chain, chain.solverChain("0xa1", [])]]);
  return { journal, chain, registry };
}

describe("following an attempt to its end", () => {
  const request = redeemRequest("aa".repeat(32), "bb".repeat(32));

  function setup(
    kind: ActionRequest["kind"] = "redeem",
    verdict: Decision | null = null,
    allowance?: FeeAllowance,
  ) {
    const { journal, chain, registry } = followerChain();
    const ctx = {
      ...ctxOf(journal),
      fillSafety: {
        recheck: (fill: ActionRow) => {
          rechecked.push(fill.id);
          return Promise.resolve(verdict);
        },
      },
      feeAllowance: () => Promise.resolve(allowance),
    };
    const rechecked: number[] = [];
    const { action } = claimOk(journal, { ...request, kind });
    const attempt = journal.recordSigned([action.id], {
      chain: chain.chain,
      txHash: "0x01",
      raw: "0x01",
      nonce: 4n,
      terms: evmTerms(),
    });
    journal.markBroadcast(attempt.id);
    const follow = (nowMs = Date.now()) => followAttempts(registry, ctx, nowMs);
    return { journal, chain, action, attempt, follow, rechecked };
  }

  it("follows a mined attempt until it is final, and sends it again when a reorg takes it out", async () => {
    const { journal, chain, action, attempt, follow } = setup();
    chain.statusOf = () => ({ state: "confirmed", blockHeight: 50n, confirmations: 2 });
    await follow();
    expect(journal.attempt(attempt.id)).toMatchObject({ state: "broadcast", blockHeight: 50n });
    expect(journal.action(action.id).status).toBe("broadcast");

    chain.statusOf = () => ({ state: "unknown" });
    await follow();
    expect(journal.attempt(attempt.id)).toMatchObject({ state: "broadcast", blockHeight: null });
    expect(chain.broadcasts).toEqual(["0x01"]);

    chain.statusOf = () => ({ state: "confirmed", blockHeight: 52n, confirmations: 3 });
    await follow();
    expect(journal.attempt(attempt.id)).toMatchObject({ state: "confirmed", blockHeight: 52n });
    expect(journal.action(action.id).status).toBe("confirmed");
  });

  it("keeps the original when the node refuses its replacement, and replaces it again later", async () => {
    const { journal, chain, attempt, follow } = setup();
    chain.statusOf = () => ({ state: "pending" });
    let bumps = 0;
    chain.bumpWith = (old) => ({
      chain: chain.chain,
      txHash: `${old.txHash}b${++bumps}`,
      raw: "0x02",
      nonce: 4n,
      terms: evmTerms(2n),
    });
    chain.failBroadcast = () => new Error("replacement transaction underpriced");
    await follow(Date.now() + 120_000);
    expect(journal.attempt(attempt.id).state).toBe("broadcast");
    expect(journal.attemptsOfAction(journal.attempt(attempt.id).actionIds[0]!).map((a) => a.state)).toEqual([
      "broadcast",
      "dropped",
    ]);
    chain.failBroadcast = () => null;
    await follow(Date.now() + 120_000);
    expect(journal.attempt(attempt.id).state).toBe("replaced");
    expect(chain.broadcasts).toEqual(["0x01b2"]);
  });

  it("replaces an attempt the node refuses for its fee, and gives up one whose input or nonce is gone", async () => {
    const { journal, chain, attempt, action, follow } = setup();
    chain.statusOf = () => ({ state: "unknown" });
    chain.failBroadcast = (hash) => (hash === "0x01" ? new Error("mempool min fee not met") : null);
    chain.bumpWith = () => ({
      chain: chain.chain,
      txHash: "0x03",
      raw: "0x03",
      nonce: 4n,
      terms: evmTerms(9n),
    });
    await expect(follow(Date.now() + 1_000)).resolves.toBeUndefined();
    expect(journal.attempt(attempt.id).state).toBe("broadcast");
    await follow(Date.now() + 120_000);
    expect(journal.attemptsOfAction(action.id).map((a) => a.state)).toEqual(["replaced", "broadcast"]);
    expect(chain.broadcasts).toEqual(["0x03"]);

    chain.statusOf = () => ({ state: "dead", reason: "nonce 4 is used by another transaction" });
    await follow();
    expect(journal.action(action.id).status).toBe("failed");
    expect(journal.liveAttempts(chain.chain)).toEqual([]);
  });

  it("gives up a redeem the node refuses for good and plans it again; never one it cannot reach", async () => {
    const { journal, chain, attempt, action, follow } = setup();
    chain.statusOf = () => ({ state: "unknown" });
    let replacements = 0;
    chain.bumpWith = (old) => ({ ...old, txHash: `${old.txHash}b${++replacements}`, terms: evmTerms(5n) });
    chain.failBroadcast = () => new RpcUnavailableError(chain.chain, "eth_sendRawTransaction", [], []);
    await follow(Date.now() + 120_000);
    // No node answered: nothing says the fee is too low, so no replacement pays more.
    expect(replacements).toBe(0);
    expect(journal.attemptsOfAction(action.id).map((a) => a.state)).toEqual(["broadcast"]);

    chain.failBroadcast = () => new InputsGoneError(attempt.txHash, "bad-txns-inputs-missingorspent");
    await follow(Date.now() + 120_000);
    expect(journal.attempt(attempt.id).state).toBe("dropped");
    expect(journal.action(action.id).status).not.toBe("confirmed");
    expect(chain.broadcasts).toEqual([]);
  });

  const refused: Decision = {
    outcome: "refuse",
    reason: "source_timelock_too_short",
    detail: "the source can be refunded before the fill's lock ends",
  };
  const cancelTx = (old: { txHash: string }) => ({
    chain: "ethereum_localnet",
    txHash: `${old.txHash}c`,
    raw: "0x0c",
    nonce: 4n,
    terms: evmTerms(3n),
  });

  it("cancels a pending fill whose safety rules fail now, instead of re-pricing it", async () => {
    const { journal, chain, action, attempt, follow, rechecked } = setup("fill", refused);
    chain.statusOf = () => ({ state: "pending" });
    chain.bumpWith = () => {
      throw new Error("a fill that is no longer safe must not be re-priced");
    };
    chain.cancelWith = cancelTx;
    await follow(Date.now() + 1_000);
    expect(rechecked).toEqual([]);
    expect(chain.broadcasts).toEqual([]);

    await follow(Date.now() + 120_000);
    expect(rechecked).toEqual([action.id]);
    expect(chain.broadcasts).toEqual(["0x01c"]);
    const [fill, cancel] = journal.attemptsOfAction(action.id);
    expect(fill).toMatchObject({ state: "replaced", purpose: "action" });
    expect(cancel).toMatchObject({ state: "broadcast", purpose: "cancel", txHash: "0x01c" });
    expect(journal.actionTxids(action.orderId, "fill")).toEqual([attempt.txHash]);

    // The cancel is final: the fill can never be mined, and the action is failed for good reason.
    chain.statusOf = (a) =>
      a.txHash === "0x01c"
        ? { state: "confirmed", blockHeight: 60n, confirmations: 3 }
        : { state: "dead", reason: "nonce 4 is used by another transaction" };
    await follow();
    expect(journal.attempt(attempt.id).state).toBe("dropped");
    expect(journal.action(action.id)).toMatchObject({ status: "failed", lastError: CANCELLED });
    expect(journal.liveAttempts(chain.chain)).toEqual([]);
  });

  it("counts the fill done when it is mined before its cancel", async () => {
    const { journal, chain, action, attempt, follow } = setup("fill", refused);
    chain.statusOf = () => ({ state: "pending" });
    chain.cancelWith = cancelTx;
    await follow(Date.now() + 120_000);
    chain.statusOf = (a) =>
      a.txHash === attempt.txHash
        ? { state: "confirmed", blockHeight: 60n, confirmations: 3 }
        : { state: "dead", reason: "nonce 4 is used by another transaction" };
    await follow();
    expect(journal.action(action.id).status).toBe("confirmed");
    expect(journal.attemptsOfAction(action.id).map((a) => a.state)).toEqual(["confirmed", "dropped"]);
  });

  it("out-pays a stuck cancel with another cancel, never with the fill", async () => {
    const { journal, chain, action, follow } = setup("fill", refused);
    chain.statusOf = () => ({ state: "pending" });
    let cancels = 0;
    chain.cancelWith = (old) => ({ ...cancelTx(old), txHash: `0xc${++cancels}` });
    await follow(Date.now() + 120_000);
    await follow(Date.now() + 240_000);
    const attempts = journal.attemptsOfAction(action.id);
    expect(attempts.map((a) => [a.purpose, a.state])).toEqual([
      ["action", "replaced"],
      ["cancel", "replaced"],
      ["cancel", "broadcast"],
    ]);
    expect(chain.broadcasts).toEqual(["0xc1", "0xc2"]);
  });

  it("neither re-sends nor cancels a fill whose facts cannot be read this round", async () => {
    const wait: Decision = { outcome: "wait", reason: "source_unreadable", detail: "node down" };
    const { journal, chain, action, follow } = setup("fill", wait);
    chain.statusOf = () => ({ state: "unknown" });
    chain.cancelWith = cancelTx;
    await follow(Date.now() + 120_000);
    expect(chain.broadcasts).toEqual([]);
    expect(journal.attemptsOfAction(action.id).map((a) => a.state)).toEqual(["broadcast"]);
  });

  /** Two fills batched in one transaction, each rechecked with the verdict the test gives its order. */
  function batchOfTwoFills(verdicts: Record<string, Decision | null>) {
    const { journal, chain, registry } = followerChain();
    const ids = Object.keys(verdicts).map(
      (orderId) => claimOk(journal, { ...redeemRequest(orderId, `${orderId}-swap`), kind: "fill" }).action.id,
    );
    const attempt = journal.recordSigned(ids, {
      chain: chain.chain,
      txHash: "0x01",
      raw: "0x01",
      nonce: 4n,
      terms: evmTerms(),
    });
    journal.markBroadcast(attempt.id);
    chain.cancelWith = cancelTx;
    const ctx = {
      ...ctxOf(journal),
      fillSafety: { recheck: (fill: ActionRow) => Promise.resolve(verdicts[fill.orderId] ?? null) },
    };
    return { journal, chain, attempt, follow: (nowMs: number) => followAttempts(registry, ctx, nowMs) };
  }

  it("cancels a batch one of whose fills is unsafe, though another's facts cannot be read", async () => {
    const wait: Decision = { outcome: "wait", reason: "source_unreadable", detail: "node down" };
    for (const state of ["pending", "unknown"] as const) {
      // The unreadable fill first: its wait must not spare the unsafe one.
      const { journal, chain, attempt, follow } = batchOfTwoFills({ a1: wait, b2: refused });
      chain.statusOf = () => ({ state });
      await follow(Date.now() + 120_000);
      expect(chain.broadcasts).toEqual(["0x01c"]);
      expect(journal.attemptsOfAction(attempt.actionIds[1]!).map((a) => [a.purpose, a.state])).toEqual([
        ["action", "replaced"],
        ["cancel", "broadcast"],
      ]);
    }
    // None unsafe, one not judged now: the batch is neither re-sent nor cancelled this round.
    const { journal, chain, attempt, follow } = batchOfTwoFills({ a1: null, b2: wait });
    chain.statusOf = () => ({ state: "unknown" });
    await follow(Date.now() + 120_000);
    expect(chain.broadcasts).toEqual([]);
    expect(journal.attempt(attempt.id).state).toBe("broadcast");
  });

  it("re-sends a forgotten fill whose rules still hold", async () => {
    const { chain, follow, attempt } = setup("fill", null);
    chain.statusOf = () => ({ state: "unknown" });
    await follow(Date.now() + 1_000);
    expect(chain.broadcasts).toEqual([attempt.txHash]);
  });

  it("gives a re-priced redeem the fee allowance of the moment", async () => {
    const allowance = { maxFee: 10n, reason: "source redeem near its deadline" };
    const { chain, follow } = setup("redeem", null, allowance);
    chain.statusOf = () => ({ state: "pending" });
    chain.bumpWith = (old) => ({ ...cancelTx(old), txHash: "0xbb" });
    await follow(Date.now() + 120_000);
    expect(chain.allowances).toEqual([allowance]);
    expect(chain.broadcasts).toEqual(["0xbb"]);
  });

  it("fills nonce gaps at start and after an attempt ends unmined, journaled as moving nothing", async () => {
    const { journal, chain, follow } = setup("redeem");
    chain.statusOf = () => ({ state: "pending" });
    await follow(Date.now() + 1_000);
    expect(chain.gapChecks).toBe(0);

    const filler = { chain: chain.chain, txHash: "0x0f", raw: "0x0f", nonce: 3n, terms: evmTerms() };
    chain.gapFillers = [filler];
    chain.statusOf = () => ({ state: "dead", reason: "nonce 4 is used by another transaction" });
    await follow(Date.now() + 1_000);
    expect(chain.gapChecks).toBe(1);
    expect(chain.broadcasts).toEqual(["0x0f"]);
    const [live] = journal.liveAttemptRows();
    expect(live).toMatchObject({ txHash: "0x0f", purpose: "cancel", actionIds: [], state: "broadcast" });

    await followAttempts(
      new Map([[chain.chain, chain.solverChain("0xa1", [])]]),
      ctxOf(journal),
      Date.now(),
      "all",
    );
    expect(chain.gapChecks).toBe(2);
  });
});

describe("reading the statuses of many attempts", () => {
  it("reads eight at a time, and a failed read leaves only its own attempt as it was", async () => {
    const { journal, chain, registry } = followerChain();
    const attempts = Array.from({ length: 20 }, (_, i) => {
      const byte = (i + 16).toString(16);
      const { action } = claimOk(journal, redeemRequest(byte.repeat(32), byte.repeat(32)));
      const attempt = journal.recordSigned([action.id], {
        chain: chain.chain,
        txHash: `0x${byte}`,
        raw: `0x${byte}`,
        nonce: BigInt(i),
        terms: evmTerms(),
      });
      journal.markBroadcast(attempt.id);
      return attempt;
    });
    let inFlight = 0;
    let mostInFlight = 0;
    chain.txStatus = async (attempt) => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      if (attempt.txHash === "0x13") throw new Error("node timed out");
      return { state: "confirmed", blockHeight: 50n, confirmations: 10 };
    };

    await followAttempts(registry, ctxOf(journal), Date.now());

    expect(mostInFlight).toBe(8);
    const states = attempts.map((attempt) => journal.attempt(attempt.id).state);
    expect(states.filter((state) => state === "confirmed")).toHaveLength(19);
    expect(journal.attempt(attempts[3]!.id).state).toBe("broadcast");
  });
});
