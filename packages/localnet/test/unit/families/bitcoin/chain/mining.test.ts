import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BitcoinRpcError } from "htlc-solver/chains/bitcoin/rpc.js";
import {
  startBitcoinForTests,
  type BitcoinTestNode,
} from "../../../../../../../test/support/bitcoin-node.js";
import { p2wpkhOf, signP2wpkh, spendTx, TestKey } from "./helpers.js";

describe("regtest mining and coinbase maturity", () => {
  let btc: BitcoinTestNode;
  beforeAll(async () => {
    btc = await startBitcoinForTests();
  });
  afterAll(async () => {
    await btc.stop();
  });

  it("starts at regtest genesis and mines blocks with advancing heights and times", async () => {
    const info = await btc.rpc.getBlockchainInfo();
    expect(info.chain).toBe("regtest");
    expect(await btc.rpc.getBlockHash(0)).toBe(
      "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206",
    );
    const start = await btc.rpc.getBlockCount();
    const hashes = await btc.rpc.generateToAddress(3, p2wpkhOf(new TestKey()).address);
    expect(hashes).toHaveLength(3);
    expect(await btc.rpc.getBlockCount()).toBe(start + 3);
    expect(await btc.rpc.getBestBlockHash()).toBe(hashes[2]);
    const headers = await Promise.all(hashes.map((h) => btc.rpc.getBlockHeader(h)));
    expect(headers.map((h) => h.height)).toEqual([start + 1, start + 2, start + 3]);
    expect(headers[1]?.previousblockhash).toBe(hashes[0]);
    expect(headers[0]?.nextblockhash).toBe(hashes[1]);
    // bitcoind may give blocks mined within one second equal times; the local node advances them.
    const advance = (headers[2]?.time ?? 0) - (headers[0]?.time ?? 0);
    expect(advance).toBeGreaterThanOrEqual(btc.isExternal ? 0 : 2);
    expect(headers[0]?.confirmations).toBe(3);
    expect(headers[0]?.bits).toBe("207fffff");
  });

  it("pays the subsidy to the address and refuses the coinbase before 100 confirmations", async () => {
    const key = new TestKey();
    const wallet = p2wpkhOf(key);
    const [hash] = await btc.rpc.generateToAddress(1, wallet.address);
    const block = await btc.rpc.getBlock(hash ?? "", 2);
    const coinbase = block.tx[0];
    const out = coinbase?.vout[0];
    expect(out?.scriptPubKey.address).toBe(wallet.address);
    expect(out?.scriptPubKey.type).toBe("witness_v0_keyhash");
    const expectedSubsidy = 5_000_000_000n >> BigInt(Math.floor(block.height / 150));
    expect(out?.valueSats).toBe(expectedSubsidy);

    const utxo = { txid: coinbase?.txid ?? "", vout: 0, value: out?.valueSats ?? 0n, script: wallet.output };
    const tx = spendTx(utxo, wallet.output, 1_000n);
    signP2wpkh(tx, 0, key, utxo.value);
    const premature = await btc.rpc.sendRawTransaction(tx.toHex()).catch((e: unknown) => e);
    expect(premature).toBeInstanceOf(BitcoinRpcError);
    expect((premature as BitcoinRpcError).code).toBe(-26);
    expect((premature as BitcoinRpcError).rpcMessage).toBe(
      "bad-txns-premature-spend-of-coinbase, tried to spend coinbase at depth 1",
    );

    await btc.rpc.generateToAddress(98, p2wpkhOf(new TestKey()).address);
    const [check] = await btc.rpc.testMempoolAccept([tx.toHex()]);
    expect(check).toMatchObject({ allowed: false, "reject-reason": "bad-txns-premature-spend-of-coinbase" });

    await btc.rpc.generateToAddress(1, p2wpkhOf(new TestKey()).address);
    expect(await btc.rpc.sendRawTransaction(tx.toHex())).toBe(tx.getId());
    expect(await btc.rpc.getRawMempool()).toContain(tx.getId());
  });

  it("reports a node-side fee estimate in sat/kvB", async () => {
    const estimate = await btc.rpc.estimateSmartFee(6);
    if (btc.isExternal && estimate.feeRateSatKvB === null) {
      // A fresh bitcoind has no fee data yet and says so.
      expect(estimate.errors.length).toBeGreaterThan(0);
      return;
    }
    expect(estimate.feeRateSatKvB).toBe(btc.isExternal ? estimate.feeRateSatKvB : 2_000n);
  });

  it("answers unknown methods with -32601 and bad block hashes with -5", async () => {
    const unknown = await btc.rpc.call("nosuchmethod").catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: -32601, method: "nosuchmethod" });
    const missing = await btc.rpc.getBlock("00".repeat(32)).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: -5, rpcMessage: "Block not found" });
    const range = await btc.rpc.getBlockHash(10_000_000).catch((e: unknown) => e);
    expect(range).toMatchObject({ code: -8, rpcMessage: "Block height out of range" });
  });
});
