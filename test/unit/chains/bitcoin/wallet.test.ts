import { networks } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { InsufficientFundsError } from "../../../../src/chains/bitcoin/coin-selection.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import { BitcoinWallet } from "../../../../src/chains/bitcoin/wallet.js";
import { bitcoinTerms, MemoryJournal } from "../../../support/memory-journal.js";

const key = BitcoinKey.fromHex("21".repeat(32));
const payee = BitcoinKey.fromHex("42".repeat(32)).walletPayment(networks.regtest).output;
const coin = (n: number) => ({ txid: n.toString(16).padStart(64, "0"), vout: 0, value: 100_000n, height: 1 });

function wallet(now: () => number = Date.now) {
  const journal = new MemoryJournal();
  const w = new BitcoinWallet({
    chain: "bitcoin_regtest",
    key,
    network: networks.regtest,
    // A node answers slowly: both payments read the same outputs before either is signed.
    backend: {
      confirmedUnspent: () => new Promise((resolve) => setTimeout(() => resolve([coin(1), coin(2)]), 20)),
    },
    journal,
    now,
  });
  return { w, journal };
}

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
});
