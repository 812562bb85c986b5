import { describe, expect, it } from "vitest";
import { BitcoinRegtestNode } from "../../../../../src/families/bitcoin/chain/node.js";
import { p2wpkhOf, signP2wpkh, spendTx, TestKey, type Utxo } from "./helpers.js";

/** Local node only: block assembly by package fee rate against -blockmintxfee. */
describe("block assembly", () => {
  function fundedNode(): { node: BitcoinRegtestNode; key: TestKey; coinbase: Utxo } {
    const node = new BitcoinRegtestNode({ blockMinFeeRateSatVb: 5n });
    const key = new TestKey();
    const wallet = p2wpkhOf(key);
    const [hash = ""] = node.mine(1, wallet.output);
    node.mine(100, p2wpkhOf(new TestKey()).output);
    const coinbaseTx = node.chain.byHash.get(hash)?.txs[0];
    if (coinbaseTx === undefined) throw new Error("no coinbase");
    const coinbase = {
      txid: coinbaseTx.getId(),
      vout: 0,
      value: coinbaseTx.outs[0]?.value ?? 0n,
      script: wallet.output,
    };
    return { node, key, coinbase };
  }

  it("leaves transactions below the block minimum fee rate in the mempool until a child pays for them", () => {
    const { node, key, coinbase } = fundedNode();
    const parent = spendTx(coinbase, p2wpkhOf(key).output, 200n);
    signP2wpkh(parent, 0, key, coinbase.value);
    node.sendTransaction(parent);
    node.mine(1, p2wpkhOf(new TestKey()).output);
    expect(node.mempool.has(parent.getId())).toBe(true);

    const out = {
      txid: parent.getId(),
      vout: 0,
      value: parent.outs[0]?.value ?? 0n,
      script: p2wpkhOf(key).output,
    };
    const child = spendTx(out, p2wpkhOf(new TestKey()).output, 2_000n);
    signP2wpkh(child, 0, key, out.value);
    node.sendTransaction(child);
    const [hash = ""] = node.mine(1, p2wpkhOf(new TestKey()).output);
    const mined = node.chain.byHash.get(hash)?.txids ?? [];
    expect(mined.slice(1)).toEqual([parent.getId(), child.getId()]);
    expect(node.mempool.size).toBe(0);
  });
});
