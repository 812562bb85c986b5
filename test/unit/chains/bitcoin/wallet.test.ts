import { networks, type Transaction } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { InsufficientFundsError } from "../../../../src/chains/bitcoin/coin-selection.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import { BitcoinWallet } from "../../../../src/chains/bitcoin/wallet.js";
import { bitcoinTerms, MemoryJournal } from "../../../support/memory-journal.js";

const key = BitcoinKey.fromHex("21".repeat(32));
const payee = BitcoinKey.fromHex("42".repeat(32)).walletPayment(networks.regtest).output;
const coin = (n: number) => ({ txid: n.toString(16).padStart(64, "0"), vout: 0, value: 100_000n, height: 1 });

function wallet(now: () => number = Date.now, options: { coins?: number; chainWindowMs?: number } = {}) {
  const journal = new MemoryJournal();
  const coins = Array.from({ length: options.coins ?? 2 }, (_, i) => coin(i + 1));
  const w = new BitcoinWallet({
    chain: "bitcoin_regtest",
    key,
    network: networks.regtest,
    // A node answers slowly: both payments read the same outputs before either is signed.
    backend: {
      confirmedUnspent: () => new Promise((resolve) => setTimeout(() => resolve(coins), 20)),
    },
    journal,
    now,
    ...(options.chainWindowMs === undefined ? {} : { chainWindowMs: options.chainWindowMs }),
  });
  return { w, journal };
}

const journaled = (paid: { tx: Transaction }) => ({
  chain: "bitcoin_regtest",
  txHash: paid.tx.getId(),
  raw: paid.tx.toHex(),
  nonce: null,
  terms: bitcoinTerms(),
});

describe("the Bitcoin wallet under concurrent payments", () => {
  it("never gives two payments built at once the same output", async () => {
    const { w } = wallet();
    const pay = () => w.pay([{ script: payee, value: 60_000n }], 2n);
    const [a, b] = await Promise.all([pay(), pay()]);
    expect(a.spends).toHaveLength(1);
    expect(b.spends).toHaveLength(1);
    expect(a.spends[0]).not.toBe(b.spends[0]);
    await expect(pay()).rejects.toThrow(InsufficientFundsError);
  });

  it("keeps a picked output reserved until the journal shows it, or until the hold expires", async () => {
    let now = 1_000_000;
    const { w, journal } = wallet(() => now);
    const first = await w.pay([{ script: payee, value: 150_000n }], 2n);
    expect(first.spends).toHaveLength(2);
    await expect(w.pay([{ script: payee, value: 1_000n }], 2n)).rejects.toThrow(InsufficientFundsError);
    // Journaled: the outputs stay out of selection through the journal, and its change is spendable.
    journal.record({
      chain: "bitcoin_regtest",
      txHash: first.tx.getId(),
      raw: first.tx.toHex(),
      nonce: null,
      terms: bitcoinTerms(),
    });
    expect((await w.spendable()).map((u) => u.txid)).toEqual([first.tx.getId()]);
    // A payment that is never journaled gives its outputs back once the hold has passed.
    const { w: lone } = wallet(() => now);
    await lone.pay([{ script: payee, value: 150_000n }], 2n);
    expect(await lone.spendable()).toEqual([]);
    now += 61_000;
    expect(await lone.spendable()).toHaveLength(2);
  });

  it("counts change it will not chain on, and none of a payment whose parent was cancelled", async () => {
    let now = Date.now();
    const { w, journal } = wallet(() => now, { coins: 1, chainWindowMs: 30_000 });
    const parent = await w.pay([{ script: payee, value: 60_000n }], 2n);
    journal.record(journaled(parent));
    const parentChange = parent.tx.outs[1]!.value;
    // Young: a payment may be chained on its change.
    const child = await w.pay([{ script: payee, value: 10_000n }], 2n);
    expect(child.spends).toEqual([`${parent.tx.getId()}:1`]);
    journal.record(journaled(child));
    const childChange = child.tx.outs[1]!.value;
    expect(await w.balance()).toEqual({ confirmed: 0n, unconfirmed: childChange });

    // Past half its bump delay the parent may soon be replaced: its line of change is kept, not spent.
    now += 31_000;
    expect(await w.spendable()).toEqual([]);
    await expect(w.pay([{ script: payee, value: 1_000n }], 2n)).rejects.toThrow(InsufficientFundsError);
    expect(await w.balance()).toEqual({ confirmed: 0n, unconfirmed: childChange });

    // The parent is cancelled: the child can no longer land, and its change is no longer the wallet's.
    const cancel = w.signPayment([{ ...coin(1) }], [{ script: w.outputScript, value: 99_000n }]);
    journal.record(journaled({ tx: cancel }));
    expect(await w.balance()).toEqual({ confirmed: 0n, unconfirmed: 99_000n });
    expect(parentChange).toBeGreaterThan(childChange);
  });
});
