import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { ActionRequest } from "../../../src/chains/chain.js";
import { Journal } from "../../../src/journal/journal.js";
import { batchActions, executeClaimed, type ExecutionContext } from "../../../src/solver/action-executor.js";
import type { ClaimedAction } from "../../../src/solver/fill-gate.js";
import { silentObserver } from "../../../src/solver/observer.js";
import { claimOk } from "../../support/journal-claims.js";
import { ChainShowsItError, FakeChain } from "./fake-chain.js";

const opened: Journal[] = [];
afterEach(() => {
  for (const journal of opened.splice(0)) journal.close();
});

function request(kind: ActionRequest["kind"], n: number, chain = "ethereum_localnet"): ActionRequest {
  return {
    kind,
    orderId: n.toString(16).padStart(64, "0"),
    params: {
      chain,
      asset: `${chain}:usdc`,
      swapId: `${n}`.padStart(64, "e"),
      initiator: "0xa1",
      redeemer: "0xb2",
      secretHash: "cd".repeat(32),
      timelock: 600n,
      amount: 1_000n,
    },
    ...(kind === "redeem" ? { secret: "11".repeat(32) } : {}),
  };
}

function setup() {
  const journal = new Journal(join(mkdtempSync(join(tmpdir(), "executor-")), "journal.sqlite"));
  opened.push(journal);
  const fake = new FakeChain("ethereum_localnet", "evm", () => journal);
  const chain = fake.solverChain("0xa1", [{ symbol: "usdc", tokenAddress: "0x01", decimals: 6 }]);
  const delivered: string[] = [];
  const ctx: ExecutionContext = {
    journal,
    orderbook: {
      instantRefund: (orderId) => {
        delivered.push(orderId);
        return Promise.resolve();
      },
    },
    observer: silentObserver,
    logger: pino({ level: "silent" }),
    urgencyMarginMs: 0,
    fillSafety: { recheck: () => Promise.resolve(null) },
    feeAllowance: () => Promise.resolve(undefined),
  };
  const claim = (r: ActionRequest): ClaimedAction => ({ request: r, action: claimOk(journal, r).action });
  return { journal, fake, chain, ctx, claim, delivered };
}

describe("executeClaimed", () => {
  it("journals the signed transaction before it broadcasts it, one attempt for the whole batch", async () => {
    const { journal, fake, chain, ctx, claim } = setup();
    const claimed = [claim(request("redeem", 1)), claim(request("redeem", 2))];
    let journaledAtBroadcast: string[] = [];
    fake.failBroadcast = () => {
      journaledAtBroadcast = journal.liveAttemptRows().map((a) => a.state);
      return null;
    };
    await executeClaimed(claimed, chain, ctx);
    expect(journaledAtBroadcast).toEqual(["signed"]);
    const [attempt] = journal.liveAttemptRows();
    expect(attempt).toMatchObject({ state: "broadcast", actionIds: claimed.map((c) => c.action.id) });
    expect(claimed.map((c) => journal.action(c.action.id).status)).toEqual(["broadcast", "broadcast"]);
  });

  it("fails every action of a batch that cannot be built, naming why, and sends nothing", async () => {
    const { journal, fake, chain, ctx, claim } = setup();
    const claimed = [claim(request("refund", 3)), claim(request("refund", 4))];
    fake.failNextBuild = new Error("refund would revert: not expired");
    await executeClaimed(claimed, chain, ctx);
    for (const { action } of claimed) {
      expect(journal.action(action.id)).toMatchObject({
        status: "failed",
        lastError: "refund would revert: not expired",
      });
    }
    expect(fake.broadcasts).toEqual([]);
    expect(journal.liveAttemptRows()).toEqual([]);
  });

  it("marks an action the chain already shows as done, without a transaction", async () => {
    const { journal, fake, chain, ctx, claim } = setup();
    const [fill] = [claim(request("fill", 5))];
    fake.failNextBuild = new ChainShowsItError("already initiated");
    await executeClaimed([fill!], chain, ctx);
    expect(journal.action(fill!.action.id)).toMatchObject({
      status: "confirmed",
      lastError: "already initiated",
    });
    expect(journal.liveAttemptRows()).toEqual([]);
  });

  it("keeps a transaction the node refused journaled as signed, for the follower to send again", async () => {
    const { journal, fake, chain, ctx, claim } = setup();
    const [redeem] = [claim(request("redeem", 6))];
    fake.failBroadcast = () => new Error("connection reset");
    await expect(executeClaimed([redeem!], chain, ctx)).resolves.toBeUndefined();
    expect(journal.liveAttemptRows().map((a) => a.state)).toEqual(["signed"]);
    expect(journal.action(redeem!.action.id).status).toBe("signed");
  });
});

describe("batchActions", () => {
  it("groups per chain and kind up to the executor's limit; instant refunds go alone", () => {
    const claimed = [
      ...[1, 2, 3].map((n) => ({ request: request("redeem", n) })),
      { request: request("redeem", 4, "bitcoin_regtest") },
      ...[5, 6].map((n) => ({ request: request("instant_refund", n, "bitcoin_regtest") })),
      { request: request("refund", 7) },
    ];
    const batches = batchActions(claimed, (chain) => (chain === "bitcoin_regtest" ? 8 : 2));
    expect(batches.map((b) => b.map((c) => `${c.request.params.chain}/${c.request.kind}`))).toEqual([
      ["ethereum_localnet/redeem", "ethereum_localnet/redeem"],
      ["ethereum_localnet/redeem"],
      ["bitcoin_regtest/redeem"],
      ["bitcoin_regtest/instant_refund"],
      ["bitcoin_regtest/instant_refund"],
      ["ethereum_localnet/refund"],
    ]);
  });
});
