import { networks, Transaction } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import type { TxAttemptRef } from "../../../../src/chains/chain.js";
import { txidToHash } from "../../../../src/chains/bitcoin/bytes.js";
import { journalOutputs } from "../../../../src/chains/bitcoin/journal-outputs.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import { bitcoinTerms } from "../../../support/memory-journal.js";

const wallet = BitcoinKey.fromHex("33".repeat(32)).walletPayment(networks.regtest).output;
const other = BitcoinKey.fromHex("44".repeat(32)).walletPayment(networks.regtest).output;
const fakeTxid = (n: number) => n.toString(16).padStart(64, "0");

function attempt(id: number, inputs: [number, number][], outputs: [Uint8Array, bigint][]): TxAttemptRef {
  const tx = new Transaction();
  tx.version = 2;
  for (const [n, vout] of inputs) tx.addInput(txidToHash(fakeTxid(n)), vout);
  for (const [script, value] of outputs) tx.addOutput(script, value);
  return {
    id,
    chain: "bitcoin_regtest",
    txHash: tx.getId(),
    raw: tx.toHex(),
    nonce: null,
    terms: bitcoinTerms(),
    createdAtMs: 0,
  };
}

describe("journalOutputs", () => {
  it("marks spent inputs and counts change paid back to the wallet", () => {
    const fill = attempt(
      1,
      [
        [1, 0],
        [2, 1],
      ],
      [
        [other, 50_000n],
        [wallet, 20_000n],
      ],
    );
    const { spent, change } = journalOutputs([fill], wallet);
    expect([...spent]).toEqual([`${fakeTxid(1)}:0`, `${fakeTxid(2)}:1`]);
    expect(change).toEqual([{ txid: fill.txHash, vout: 1, value: 20_000n, confirmed: false }]);
  });

  it("counts only the newest of a replaced family, and not change a later attempt spends", () => {
    const original = attempt(
      1,
      [[1, 0]],
      [
        [other, 50_000n],
        [wallet, 20_000n],
      ],
    );
    const replacement = attempt(
      2,
      [[1, 0]],
      [
        [other, 50_000n],
        [wallet, 19_000n],
      ],
    );
    const child = attempt(3, [[9, 0]], [[wallet, 7_000n]]);
    const { change } = journalOutputs([replacement, child, original], wallet);
    expect(change.map((c) => c.value).sort()).toEqual([19_000n, 7_000n].sort());
    const spender = attempt(4, [[0, 0]], [[other, 1n]]);
    // The spender spends the replacement's change output.
    const tx = Transaction.fromHex(spender.raw);
    tx.ins[0]!.hash = txidToHash(replacement.txHash);
    tx.ins[0]!.index = 1;
    const chained = { ...spender, raw: tx.toHex(), txHash: tx.getId() };
    expect(journalOutputs([original, replacement, chained], wallet).change).toEqual([]);
  });
});
