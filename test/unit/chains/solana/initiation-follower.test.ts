import { createHash } from "node:crypto";
import { Keypair, TransactionInstruction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { MemoryFollowPositions } from "../../../../src/chains/follow-positions.js";
import { htlcCallsIn } from "../../../../src/chains/solana/htlc-calls.js";
import { InitiationFollower } from "../../../../src/chains/solana/initiation-follower.js";
import {
  nativeInitiateInstruction,
  nativeRedeemInstruction,
  nativeRefundInstruction,
} from "../../../../src/chains/solana/native-instructions.js";
import { nativeSwapAddress } from "../../../../src/chains/solana/pda.js";
import { FakeLedger, transactionOf } from "./fake-ledger.js";

const programId = Keypair.generate().publicKey;
const program = { id: programId, kind: "native" as const };
const solver = Keypair.generate().publicKey;
const user = Keypair.generate().publicKey;
const secret = new Uint8Array(32).fill(7);
const secretHash = new Uint8Array(createHash("sha256").update(secret).digest());
const terms = { redeemer: user, refundee: solver, secretHash, swapAmount: 2_000_000n, timelock: 300n };
const account = nativeSwapAddress(programId, terms).address;
const parties = { programId, swapAccount: account, redeemer: user, rentSponsor: solver };

const initiate = (funder = solver) =>
  nativeInitiateInstruction({ programId, terms, funder, rentSponsor: funder });
const redeem = () => nativeRedeemInstruction({ ...parties, secret });
const refund = () =>
  nativeRefundInstruction({ programId, swapAccount: account, refundee: solver, rentSponsor: solver });

/** The solver's fill at slot 100, then whatever the test adds. */
function ledgerWithFill(): FakeLedger {
  const ledger = new FakeLedger();
  ledger.add({ signature: "fill", slot: 100n, tx: transactionOf("fill", 100n, [initiate()]) });
  return ledger;
}

const fill = { signature: "fill", slot: 100n };

function follower(
  ledger: FakeLedger,
  store = new MemoryFollowPositions(),
  bounds = { pages: 5, fetches: 200 },
) {
  return new InitiationFollower(ledger.rpc, store, {
    commitment: "confirmed",
    pagesPerRead: bounds.pages,
    fetchesPerRead: bounds.fetches,
  });
}

/** Reads until the close is found; returns it and how many reads it took. */
async function readUntilFound(f: InitiationFollower, maxReads = 1000) {
  for (let reads = 1; reads <= maxReads; reads++) {
    const close = await f.close(account, program, fill);
    if (close !== null) return { close, reads };
  }
  throw new Error(`no close after ${maxReads} reads`);
}

describe("HTLC calls of a landed transaction", () => {
  it("finds a redeem made through another program (an inner instruction) with no events in the logs", () => {
    const wrapper = new TransactionInstruction({
      programId: Keypair.generate().publicKey,
      keys: [],
      data: Buffer.alloc(0),
    });
    const tx = transactionOf("x", 5n, [wrapper], {
      inner: [{ index: 0, instructions: [redeem(), initiate(user)] }],
    });
    const calls = htlcCallsIn(tx, program);
    expect(calls.map((c) => c.name)).toEqual(["redeem", "initiate"]);
    expect(calls[0]).toMatchObject({ swapAccount: account.toBase58(), secret });
  });

  it("ignores calls of another program with the same data, and every call of a failed transaction", () => {
    const impostor = new TransactionInstruction({ ...redeem(), programId: Keypair.generate().publicKey });
    expect(htlcCallsIn(transactionOf("x", 5n, [impostor]), program)).toEqual([]);
    expect(htlcCallsIn(transactionOf("y", 5n, [redeem()], { failed: true }), program)).toEqual([]);
  });
});

describe("following the solver's fill to what closed it", () => {
  it("finds a redeem hidden by a re-initiation in the same transaction, with the secret", async () => {
    const ledger = ledgerWithFill();
    ledger.add({
      signature: "redeem+init",
      slot: 120n,
      tx: transactionOf("redeem+init", 120n, [redeem(), initiate(user)]),
    });
    const close = await follower(ledger).close(account, program, fill);
    expect(close).toMatchObject({ kind: "redeem", signature: "redeem+init", slot: 120n, secret });
  });

  it("finds the first close after the fill, not a later initiation's", async () => {
    const ledger = ledgerWithFill();
    ledger.add({ signature: "refund", slot: 500n, tx: transactionOf("refund", 500n, [refund()]) });
    ledger.add({ signature: "init2", slot: 510n, tx: transactionOf("init2", 510n, [initiate(user)]) });
    ledger.add({ signature: "redeem2", slot: 520n, tx: transactionOf("redeem2", 520n, [redeem()]) });
    expect(await follower(ledger).close(account, program, fill)).toMatchObject({
      kind: "refund",
      secret: null,
    });
  });

  it("reads a window of 10,000 landed junk transactions in bounded steps and finds the redeem after them", async () => {
    const ledger = ledgerWithFill();
    ledger.spam(10_000, 110n);
    ledger.add({ signature: "redeem", slot: 111n, tx: transactionOf("redeem", 111n, [redeem()]) });
    const f = follower(ledger, new MemoryFollowPositions(), { pages: 2, fetches: 500 });
    const fetchesBefore = [] as number[];
    let close = null;
    let reads = 0;
    while (close === null) {
      fetchesBefore.push(ledger.fetches);
      close = await f.close(account, program, fill);
      reads++;
      // The attacker keeps sending: nothing sent after the search began is ever read.
      ledger.spam(1_000, 112n, { prefix: `late${reads}` });
    }
    expect(close).toMatchObject({ kind: "redeem", secret });
    // Each read stayed within its budget, and the whole search read the window once.
    const steps = fetchesBefore.slice(1).map((n, i) => n - (fetchesBefore[i] ?? 0));
    expect(Math.max(...steps)).toBeLessThanOrEqual(500);
    expect(ledger.fetches).toBe(10_001);
    expect(ledger.fetched.some((s) => s.startsWith("late"))).toBe(false);
    // Five reads list 10 of the window's 11 pages; the sixth lists the last and begins reading.
    expect(reads).toBe(5 + Math.ceil(10_001 / 500));
  });

  it("skips failed transactions by their listing, fetching none of them", async () => {
    const ledger = ledgerWithFill();
    ledger.spam(10_100, 110n, { failed: true });
    ledger.add({ signature: "redeem", slot: 111n, tx: transactionOf("redeem", 111n, [redeem()]) });
    const { close } = await readUntilFound(
      follower(ledger, new MemoryFollowPositions(), { pages: 20, fetches: 50 }),
    );
    expect(close.signature).toBe("redeem");
    expect(ledger.fetches).toBe(1);
  });

  it("never reads what landed while the fill was seen alive", async () => {
    const ledger = ledgerWithFill();
    ledger.spam(5_000, 150n);
    ledger.add({ signature: "redeem", slot: 201n, tx: transactionOf("redeem", 201n, [redeem()]) });
    const f = follower(ledger);
    f.seenAlive(account, fill, 200n);
    const { close } = await readUntilFound(f);
    expect(close.signature).toBe("redeem");
    expect(ledger.fetches).toBe(1);
  });

  it("resumes after a restart where it stopped, neither starting over nor giving up", async () => {
    const ledger = ledgerWithFill();
    ledger.spam(3_000, 110n);
    ledger.add({ signature: "redeem", slot: 111n, tx: transactionOf("redeem", 111n, [redeem()]) });
    const store = new MemoryFollowPositions();
    const first = follower(ledger, store, { pages: 5, fetches: 1_000 });
    expect(await first.close(account, program, fill)).toBeNull();
    expect(await first.close(account, program, fill)).toBeNull();
    expect(ledger.fetches).toBe(2_000);
    const restarted = follower(ledger, store, { pages: 5, fetches: 1_000 });
    const { close, reads } = await readUntilFound(restarted);
    expect(close.signature).toBe("redeem");
    expect(reads).toBe(2);
    expect(ledger.fetches).toBe(3_001);
  });

  it("keeps the alive sighting across a restart", async () => {
    const ledger = ledgerWithFill();
    ledger.spam(2_000, 400n);
    ledger.add({ signature: "redeem", slot: 900n, tx: transactionOf("redeem", 900n, [redeem()]) });
    const store = new MemoryFollowPositions();
    follower(ledger, store).seenAlive(account, fill, 800n);
    const { close } = await readUntilFound(follower(ledger, store));
    expect(close.signature).toBe("redeem");
    expect(ledger.fetches).toBe(1);
  });

  it("searches again above a window whose listing lagged the account read", async () => {
    const ledger = ledgerWithFill();
    ledger.spam(10, 110n);
    ledger.add({ signature: "redeem", slot: 130n, tx: transactionOf("redeem", 130n, [redeem()]) });
    ledger.listingLagSlot = 120n;
    const f = follower(ledger);
    expect(await f.close(account, program, fill)).toBeNull();
    ledger.listingLagSlot = null;
    const { close } = await readUntilFound(f);
    expect(close.signature).toBe("redeem");
    expect(ledger.fetches).toBe(11);
  });
});
