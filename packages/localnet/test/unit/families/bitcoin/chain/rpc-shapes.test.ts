import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BitcoinTestNode } from "../../../../../../../test/support/bitcoin-node.js";
import type { Faucet } from "./helpers.js";
import { startFundedNode, p2trKeyPathOf, p2wpkhOf, signP2wpkh, spendTx, TestKey } from "./helpers.js";

describe("RPC answers have bitcoind's shapes", () => {
  let btc: BitcoinTestNode;
  let faucet: Faucet;

  beforeAll(async () => ({ btc, faucet } = await startFundedNode()));
  afterAll(() => btc.stop());

  it("getblock verbosity 0, 1 and 2", async () => {
    const key = new TestKey();
    const utxo = await faucet.payConfirmed(p2wpkhOf(key).output, 123_456n);
    const tx = spendTx(utxo, p2trKeyPathOf(new TestKey()).output, 1_234n, 0xfffffffe);
    signP2wpkh(tx, 0, key, utxo.value);
    await btc.rpc.sendRawTransaction(tx.toHex());
    const [hash = ""] = await btc.rpc.generateToAddress(1, faucet.burnAddress);

    const hex = await btc.rpc.getBlock(hash, 0);
    expect(hex).toMatch(/^[0-9a-f]+$/);
    const v1 = await btc.rpc.getBlock(hash, 1);
    expect(v1.tx).toHaveLength(2);
    expect(v1.tx[1]).toBe(tx.getId());
    expect(v1.nTx).toBe(2);
    expect(v1.weight).toBeGreaterThan(v1.strippedsize);

    const v2 = await btc.rpc.getBlock(hash, 2);
    const [coinbase, spend] = v2.tx;
    expect(coinbase?.vin[0]?.coinbase).toMatch(/^[0-9a-f]+$/);
    expect(coinbase?.vin[0]?.txid).toBeUndefined();
    expect(coinbase?.feeSats).toBeUndefined();
    expect(spend?.feeSats).toBe(1_234n);
    expect(spend?.vin[0]).toEqual({
      txid: utxo.txid,
      vout: 0,
      scriptSig: { asm: "", hex: "" },
      txinwitness: tx.ins[0]?.witness.map((w) => Buffer.from(w).toString("hex")),
      sequence: 0xfffffffe,
    });
    expect(spend?.vout[0]).toMatchObject({
      valueSats: 122_222n,
      n: 0,
      scriptPubKey: {
        hex: Buffer.from(tx.outs[0]?.script ?? []).toString("hex"),
        address: expect.stringMatching(/^bcrt1p/),
        type: "witness_v1_taproot",
      },
    });
    expect(spend?.hex).toBe(tx.toHex());
    expect(spend?.vsize).toBe(tx.virtualSize());
  });

  it("gettxout, getrawtransaction and getmempoolentry", async () => {
    const key = new TestKey();
    const wallet = p2wpkhOf(key);
    const utxo = await faucet.pay(wallet.output, 77_777n);
    const pending = await btc.rpc.getTxOut(utxo.txid, 0, true);
    expect(pending).toMatchObject({ confirmations: 0, valueSats: 77_777n, coinbase: false });
    expect(pending?.scriptPubKey.address).toBe(wallet.address);
    expect(await btc.rpc.getTxOut(utxo.txid, 0, false)).toBeNull();
    const entry = await btc.rpc.getMempoolEntry(utxo.txid);
    expect(entry.fees.baseSats).toBe(1_000n);
    expect(entry.vsize).toBeGreaterThan(100);

    await btc.rpc.generateToAddress(2, faucet.burnAddress);
    const confirmed = await btc.rpc.getTxOut(utxo.txid, 0, true);
    expect(confirmed?.confirmations).toBe(2);
    const raw = await btc.rpc.getRawTransactionVerbose(utxo.txid);
    expect(raw.confirmations).toBe(2);
    expect(raw.blocktime).toBe(raw.time);
    expect(await btc.rpc.getRawTransactionHex(utxo.txid)).toBe(raw.hex);
    const missing = await btc.rpc.getMempoolEntry(utxo.txid).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: -5, rpcMessage: "Transaction not in mempool" });
  });

  it("scantxoutset finds the confirmed unspent outputs of an address", async () => {
    const wallet = p2trKeyPathOf(new TestKey());
    const a = await faucet.pay(wallet.output, 10_000n);
    const b = await faucet.pay(wallet.output, 20_001n);
    await btc.rpc.generateToAddress(1, faucet.burnAddress);
    await faucet.pay(wallet.output, 5_000n); // unconfirmed: not part of the UTXO set scan
    const scan = await btc.rpc.scanTxOutSet([wallet.address]);
    expect(scan.success).toBe(true);
    expect(scan.totalAmountSats).toBe(30_001n);
    expect(scan.unspents.map((u) => `${u.txid}:${u.vout}`).sort()).toEqual(
      [`${a.txid}:0`, `${b.txid}:0`].sort(),
    );
    const tip = await btc.rpc.getBlockCount();
    for (const u of scan.unspents) {
      expect(u).toMatchObject({
        coinbase: false,
        height: tip,
        scriptPubKey: Buffer.from(wallet.output).toString("hex"),
      });
      expect(u.desc).toMatch(/^rawtr\([0-9a-f]{64}\)#[a-z0-9]{8}$/);
    }
  });
});
