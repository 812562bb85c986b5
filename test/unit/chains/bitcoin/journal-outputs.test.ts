import { networks, Transaction } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import type { AttemptState, TxAttemptRef } from "../../../../src/chains/chain.js";
import { txidToHash } from "../../../../src/chains/bitcoin/bytes.js";
import {
  journalOutputs,
  liveDescendants,
  type OutputsContext,
} from "../../../../src/chains/bitcoin/journal-outputs.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import { bitcoinTerms } from "../../../support/memory-journal.js";

const wallet = BitcoinKey.fromHex("33".repeat(32)).walletPayment(networks.regtest).output;
const other = BitcoinKey.fromHex("44".repeat(32)).walletPayment(networks.regtest).output;
const fakeTxid = (n: number) => n.toString(16).padStart(64, "0");
const NOW = 1_000_000;

/** An attempt journaled at `createdAtMs`, spending `inputs` (`txid:vout`, or a fake txid's number). */
function attempt(
  id: number,
  inputs: ([number, number] | string)[],
  outputs: [Uint8Array, bigint][],
  createdAtMs = NOW,
): TxAttemptRef {
  const tx = new Transaction();
  tx.version = 2;
  for (const input of inputs) {
    const [txid, vout] = typeof input === "string" ? input.split(":") : [fakeTxid(input[0]), input[1]];
    tx.addInput(txidToHash(String(txid)), Number(vout));
  }
  for (const [script, value] of outputs) tx.addOutput(script, value);
  return {
    id,
    chain: "bitcoin_regtest",
    txHash: tx.getId(),
    raw: tx.toHex(),
    nonce: null,
    terms: bitcoinTerms(),
    createdAtMs,
  };
}

/** A payment of 50,000 sat with 20,000 sat of change (vout 1). */
const payment = (id: number, inputs: ([number, number] | string)[], createdAtMs = NOW) =>
  attempt(
    id,
    inputs,
    [
      [other, 50_000n],
      [wallet, 20_000n],
    ],
    createdAtMs,
  );

function context(overrides: Partial<OutputsContext> = {}): OutputsContext {
  return {
    walletScript: wallet,
    confirmed: new Set(),
    journaledState: () => null,
    nowMs: NOW,
    chainWindowMs: Number.POSITIVE_INFINITY,
    ...overrides,
  };
}

const changeOf = (a: TxAttemptRef) => `${a.txHash}:1`;

describe("journalOutputs", () => {
  it("marks spent inputs and counts change paid back to the wallet", () => {
    const fill = payment(1, [
      [1, 0],
      [2, 1],
    ]);
    const { spent, change } = journalOutputs([fill], context());
    expect([...spent]).toEqual([`${fakeTxid(1)}:0`, `${fakeTxid(2)}:1`]);
    expect(change).toEqual([
      { txid: fill.txHash, vout: 1, value: 20_000n, confirmed: false, chainable: true },
    ]);
  });

  it("counts only the newest of a replaced family, and not change a later attempt spends", () => {
    const original = payment(1, [[1, 0]]);
    const replacement = attempt(
      2,
      [[1, 0]],
      [
        [other, 50_000n],
        [wallet, 19_000n],
      ],
    );
    const unrelated = attempt(3, [[9, 0]], [[wallet, 7_000n]]);
    const { change } = journalOutputs([replacement, unrelated, original], context());
    expect(change.map((c) => c.value).sort()).toEqual([19_000n, 7_000n].sort());
    const spender = attempt(4, [changeOf(replacement)], [[other, 1n]]);
    expect(journalOutputs([original, replacement, spender], context()).change).toEqual([]);
    // The original mined instead (its change is confirmed): the replacement can no longer land.
    const minedInstead = journalOutputs(
      [original, replacement],
      context({ confirmed: new Set([changeOf(original)]) }),
    );
    expect(minedInstead.change.map((c) => c.txid)).toEqual([original.txHash]);
  });

  it("counts no change of a payment chained on a replaced parent, nor on one the journal gave up", () => {
    const parent = payment(1, [[1, 0]]);
    const child = payment(2, [changeOf(parent)]);
    const grandchild = payment(3, [changeOf(child)]);
    // Before the parent is replaced, the grandchild's change is the wallet's.
    expect(journalOutputs([parent, child, grandchild], context()).change.map((c) => c.txid)).toEqual([
      grandchild.txHash,
    ]);
    // A cancel takes the parent's inputs: nothing chained on it can land, nor can its own change.
    const cancel = attempt(4, [[1, 0]], [[wallet, 69_000n]]);
    const replaced = journalOutputs([parent, child, grandchild, cancel], context());
    expect(replaced.change.map((c) => [c.txid, c.value])).toEqual([[cancel.txHash, 69_000n]]);
    // What they spend stays held until the chain proves them dead.
    expect(replaced.spent).toContain(changeOf(parent));
    expect(replaced.spent).toContain(changeOf(child));

    // The replaced parent gave up by the journal (no longer live): the child still cannot land.
    const ended = (state: AttemptState | null) =>
      context({ journaledState: (t) => (t === parent.txHash ? state : null) });
    expect(journalOutputs([child, grandchild, cancel], ended("dropped")).change.map((c) => c.txid)).toEqual([
      cancel.txHash,
    ]);
    // A parent final on the chain is fine, and so is an input the solver never journaled (a deposit).
    expect(journalOutputs([child, grandchild], ended("confirmed")).change.map((c) => c.txid)).toEqual([
      grandchild.txHash,
    ]);
    expect(journalOutputs([child, grandchild], ended(null)).change.map((c) => c.txid)).toEqual([
      grandchild.txHash,
    ]);
  });

  it("chains only on change of young attempts whose unconfirmed ancestors are young and not being replaced", () => {
    const window = 30_000;
    const old = payment(1, [[1, 0]], NOW - window);
    const young = payment(2, [[2, 0]], NOW - window + 1);
    const chainable = (attempts: TxAttemptRef[], confirmed: string[] = []) =>
      journalOutputs(attempts, context({ chainWindowMs: window, confirmed: new Set(confirmed) })).change.map(
        (c) => [c.txid, c.chainable],
      );
    expect(chainable([old, young])).toEqual([
      [old.txHash, false],
      [young.txHash, true],
    ]);
    // A young child of an old parent: the parent's bump would evict it, and whatever spends its change.
    const child = payment(3, [changeOf(old)]);
    expect(chainable([old, child])).toEqual([[child.txHash, false]]);
    // Once the parent's output is confirmed (it is mined, the child not yet), its age no longer matters.
    expect(chainable([old, child], [changeOf(old)])).toEqual([[child.txHash, true]]);
    // A replacement under way (its original still live) is not chained on, however young.
    const bump = attempt(
      4,
      [[2, 0]],
      [
        [other, 50_000n],
        [wallet, 19_000n],
      ],
    );
    expect(chainable([young, bump])).toEqual([[bump.txHash, false]]);
  });
});

describe("liveDescendants", () => {
  it("finds every live attempt spending the transaction's outputs, down the generations", () => {
    const parent = payment(1, [[1, 0]]);
    const child = payment(2, [changeOf(parent)]);
    const childBumped = payment(3, [changeOf(parent)]);
    const grandchild = attempt(4, [`${childBumped.txHash}:0`], [[other, 40_000n]]);
    const unrelated = payment(5, [[7, 0]]);
    const found = liveDescendants([unrelated, grandchild, childBumped, child, parent], parent.txHash);
    // Of the child's family only the newest counts: the one relayed.
    expect(found.map((a) => a.id).sort()).toEqual([3, 4]);
    expect(liveDescendants([parent, child], unrelated.txHash)).toEqual([]);
  });
});
