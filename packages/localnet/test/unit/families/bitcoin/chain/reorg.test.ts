import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BitcoinTestNode } from "../../../../../../../test/support/bitcoin-node.js";
import type { Faucet } from "./helpers.js";
import { startFundedNode, p2wpkhOf, signP2wpkh, spendTx, TestKey } from "./helpers.js";

describe("invalidateblock and reconsiderblock", () => {
  let btc: BitcoinTestNode;
  let faucet: Faucet;

  beforeAll(async () => ({ btc, faucet } = await startFundedNode()));
  afterAll(() => btc.stop());

  it("follows the branch with the most work and keeps the transaction confirmed on either", async () => {
    const key = new TestKey();
    const utxo = await faucet.payConfirmed(p2wpkhOf(key).output, 90_000n);
    const tx = spendTx(utxo, p2wpkhOf(new TestKey()).output, 1_000n);
    signP2wpkh(tx, 0, key, utxo.value);
    await btc.rpc.sendRawTransaction(tx.toHex());
    const [a1 = "", a2 = ""] = await btc.rpc.generateToAddress(2, faucet.burnAddress);
    const heightA = await btc.rpc.getBlockCount();

    await btc.rpc.invalidateBlock(a1);
    const branchB = await btc.rpc.generateToAddress(3, p2wpkhOf(new TestKey()).address);
    const b3 = branchB[2] ?? "";
    expect(await btc.rpc.getBestBlockHash()).toBe(b3);
    expect((await btc.rpc.getRawTransactionVerbose(tx.getId())).blockhash).toBe(branchB[0]);

    await btc.rpc.reconsiderBlock(a1);
    expect(await btc.rpc.getBestBlockHash()).toBe(b3); // the shorter branch stays inactive
    expect((await btc.rpc.getBlockHeader(a2)).confirmations).toBe(-1);

    await btc.rpc.invalidateBlock(branchB[0] ?? "");
    expect(await btc.rpc.getBestBlockHash()).toBe(a2);
    expect(await btc.rpc.getBlockCount()).toBe(heightA);
    const confirmed = await btc.rpc.getRawTransactionVerbose(tx.getId());
    expect(confirmed).toMatchObject({ blockhash: a1, confirmations: 2 });
    expect(await btc.rpc.getRawMempool()).not.toContain(tx.getId());
    expect((await btc.rpc.getBlockHeader(b3)).confirmations).toBe(-1);
  });

  it("refuses to mine an invalidated block again, as bitcoind does", async () => {
    const payout = p2wpkhOf(new TestKey()).address;
    await btc.rpc.generateToAddress(1, faucet.burnAddress); // empties the mempool
    // A fixed clock makes the rebuilt block identical, hash included.
    await btc.rpc.call("setmocktime", [Math.floor(Date.now() / 1000) + 10]);
    try {
      const [hash = ""] = await btc.rpc.generateToAddress(1, payout);
      await btc.rpc.invalidateBlock(hash);
      const again = await btc.rpc.generateToAddress(1, payout).catch((e: unknown) => e);
      expect(again).toMatchObject({ code: -32603, rpcMessage: "ProcessNewBlock, block not accepted" });
      const [other = ""] = await btc.rpc.generateToAddress(1, p2wpkhOf(new TestKey()).address);
      expect(await btc.rpc.getBestBlockHash()).toBe(other);
    } finally {
      await btc.rpc.call("setmocktime", [0]);
    }
  });
});
