/**
 * The Esplora backend against a tiny in-test HTTP server. The JSON it serves is hand-built in
 * Esplora's documented shapes (API.md of Blockstream/esplora) from real transactions signed here;
 * it is not a recording of a live server.
 */
import { createServer, type Server } from "node:http";
import { address as btcAddress, crypto as btcCrypto, networks, Transaction } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BroadcastRejectedError } from "../../../../src/chains/bitcoin/backend.js";
import { bytesToHex, hexToBytes, txidToHash } from "../../../../src/chains/bitcoin/bytes.js";
import { EsploraBackend, EsploraError } from "../../../../src/chains/bitcoin/esplora-backend.js";
import { buildRedeemTx } from "../../../../src/chains/bitcoin/htlc-spend.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import { BitcoinReader } from "../../../../src/chains/bitcoin/reader.js";
import type { HtlcParams } from "../../../../src/chains/chain.js";
import { tipBlocks } from "./esplora-fake.js";

const solver = BitcoinKey.fromHex("55".repeat(32));
const user = BitcoinKey.fromHex("66".repeat(32));
const secret = hexToBytes("ab".repeat(32));
const params: HtlcParams = {
  chain: "bitcoin_regtest",
  asset: "bitcoin_regtest:btc",
  swapId: "",
  initiator: user.xOnlyHex,
  redeemer: solver.xOnlyHex,
  secretHash: bytesToHex(btcCrypto.sha256(secret)),
  timelock: 144n,
  amount: 80_000n,
};
const reader = (backend: EsploraBackend) =>
  new BitcoinReader({ chain: params.chain, network: "regtest", backend, feeRateCeilingSatVb: 50 });
const fakeTxid = (n: number) => n.toString(16).padStart(64, "0");

type Status = { confirmed: boolean; block_height?: number; block_hash?: string };

function esploraTx(tx: Transaction, status: Status) {
  return {
    txid: tx.getId(),
    version: tx.version,
    locktime: tx.locktime,
    vin: tx.ins.map((input) => ({
      txid: bytesToHex(Uint8Array.from(input.hash).reverse()),
      vout: input.index,
      prevout: null,
      scriptsig: "",
      scriptsig_asm: "",
      witness: input.witness.map((w) => bytesToHex(w)),
      is_coinbase: false,
      sequence: input.sequence,
    })),
    vout: tx.outs.map((out) => ({
      scriptpubkey: bytesToHex(out.script),
      scriptpubkey_type: "v1_p2tr",
      scriptpubkey_address: btcAddress.fromOutputScript(out.script, networks.regtest),
      value: Number(out.value),
    })),
    size: tx.byteLength(),
    weight: tx.weight(),
    fee: 500,
    status,
  };
}

function payment(n: number, script: Uint8Array, value: bigint): Transaction {
  const tx = new Transaction();
  tx.version = 2;
  tx.addInput(txidToHash(fakeTxid(n)), 0);
  tx.addInput(txidToHash(fakeTxid(n + 1000)), 0);
  tx.addOutput(script, value);
  return tx;
}

const htlc = reader(new EsploraBackend({ url: "http://unused" })).htlcOf(params);
const funding1 = payment(1, htlc.outputScript, 50_000n);
const funding2 = payment(2, htlc.outputScript, 30_000n);
const redeem = buildRedeemTx(
  [{ htlc, txid: funding1.getId(), vout: 0, value: 50_000n, secret }],
  solver,
  solver.walletPayment(networks.regtest).output,
  2n,
).tx;
// A busy address: 25 confirmed payments on the first page and one more on the next.
const busy = user.walletPayment(networks.regtest);
const busyTxs = Array.from({ length: 26 }, (_, i) => payment(100 + i, busy.output, BigInt(1_000 + i)));

// A mempool transaction whose outputs two children spend, one child spent by a grandchild in turn.
function spending(parent: Transaction, vout: number, value: bigint): Transaction {
  const tx = new Transaction();
  tx.version = 2;
  tx.addInput(txidToHash(parent.getId()), vout);
  tx.addOutput(busy.output, value);
  return tx;
}
const pending = payment(300, busy.output, 40_000n);
pending.addOutput(busy.output, 40_000n);
pending.addOutput(busy.output, 1_000n);
const child = spending(pending, 0, 39_000n);
const sibling = spending(pending, 1, 39_000n);
const grandchild = spending(child, 0, 38_000n);
const descendantFees = new Map([
  [child.getId(), 700],
  [sibling.getId(), 500],
  [grandchild.getId(), 300],
]);
const unconfirmedSpend = (tx: Transaction) => ({
  spent: true,
  txid: tx.getId(),
  vin: 0,
  status: { confirmed: false },
});

const confirmedAt = (height: number): Status => ({
  confirmed: true,
  block_height: height,
  block_hash: "00".repeat(32),
});

function route(method: string, path: string, body: string): [number, string] {
  const json = (value: unknown): [number, string] => [200, JSON.stringify(value)];
  if (path === "/blocks") return json(tipBlocks(120));
  if (path === `/address/${htlc.address}/txs`) {
    return json([
      esploraTx(funding2, { confirmed: false }),
      esploraTx(redeem, confirmedAt(118)),
      esploraTx(funding1, confirmedAt(110)),
    ]);
  }
  if (path === `/tx/${funding1.getId()}/outspends`) {
    return json([{ spent: true, txid: redeem.getId(), vin: 0, status: confirmedAt(118) }]);
  }
  if (path === `/tx/${funding2.getId()}/outspends`) return json([{ spent: false }]);
  if (path === `/address/${busy.address}/txs`)
    return json(busyTxs.slice(0, 25).map((t) => esploraTx(t, confirmedAt(100))));
  if (path === `/address/${busy.address}/txs/chain/${busyTxs[24]!.getId()}`) {
    return json([esploraTx(busyTxs[25]!, confirmedAt(90))]);
  }
  if (path === `/tx/${pending.getId()}/status`) return json({ confirmed: false });
  if (path === `/tx/${pending.getId()}/outspends`)
    return json([unconfirmedSpend(child), unconfirmedSpend(sibling), { spent: false }]);
  if (path === `/tx/${child.getId()}/outspends`) return json([unconfirmedSpend(grandchild)]);
  for (const tx of [child, sibling, grandchild]) {
    if (path === `/tx/${tx.getId()}`)
      return json({ ...esploraTx(tx, { confirmed: false }), fee: descendantFees.get(tx.getId()) });
  }
  if (path.startsWith("/tx/") && path.endsWith("/outspends")) return json([{ spent: false }]);
  if (path === `/address/${busy.address}/utxo`) {
    return json([
      { txid: fakeTxid(7), vout: 1, value: 12_345, status: confirmedAt(100) },
      { txid: fakeTxid(8), vout: 0, value: 999, status: { confirmed: false } },
    ]);
  }
  if (path === "/fee-estimates") return json({ "1": 20.5, "2": 12.1, "6": 4.3, "144": 1.002 });
  if (path === `/tx/${redeem.getId()}/status`) return json(confirmedAt(118));
  if (path === `/tx/${funding2.getId()}/status`) return json({ confirmed: false });
  if (method === "POST" && path === "/tx") {
    if (body === redeem.toHex()) {
      return [
        400,
        'sendrawtransaction RPC error: {"code":-27,"message":"Transaction already in block chain"}',
      ];
    }
    if (body === funding1.toHex())
      return [400, 'sendrawtransaction RPC error: {"code":-26,"message":"min relay fee not met"}'];
    return [200, Transaction.fromHex(body).getId()];
  }
  return [404, "Transaction not found"];
}

let server: Server;
let backend: EsploraBackend;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const [status, text] = route(req.method ?? "GET", new URL(req.url ?? "/", "http://x").pathname, body);
      res.writeHead(status, {
        "content-type": status === 200 && text.startsWith("[") ? "application/json" : "text/plain",
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  backend = new EsploraBackend({ url: `http://127.0.0.1:${address.port}/` });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("EsploraBackend", () => {
  it("reads fundings and spends, and the reader derives the HTLC state with the secret", async () => {
    const activity = await backend.addressActivity(htlc.address);
    expect(activity.tipHeight).toBe(120);
    expect(activity.outputs).toHaveLength(2);
    const state = await reader(backend).readHtlc(params);
    expect(state.secret).toBe(bytesToHex(secret));
    // Each output is its own lock: the redeemed one says so; the unconfirmed one is untouched.
    expect(state.locks).toEqual([
      {
        id: `${funding2.getId()}:0`,
        fundingTx: funding2.getId(),
        value: 30_000n,
        height: null,
        refundableAtHeight: null,
        worthSpending: true,
        spend: null,
      },
      {
        id: `${funding1.getId()}:0`,
        fundingTx: funding1.getId(),
        value: 50_000n,
        height: 110n,
        refundableAtHeight: 254n,
        worthSpending: true,
        spend: { kind: "redeem", txid: redeem.getId(), height: 118n },
      },
    ]);
  });

  it("cannot tell which HTLCs a block changed: the reader says so rather than an empty list", async () => {
    expect(await reader(backend).changedSwapIds(118n, 118n)).toBeNull();
  });

  it("pages through confirmed history", async () => {
    const activity = await backend.addressActivity(busy.address);
    expect(activity.outputs).toHaveLength(26);
    expect(activity.outputs.reduce((s, o) => s + o.value, 0n)).toBe(26n * 1_000n + 325n);
  });

  it("lists confirmed wallet outputs only", async () => {
    expect(await backend.confirmedUnspent(busy.address)).toEqual([
      { txid: fakeTxid(7), vout: 1, value: 12_345n, height: 100 },
    ]);
  });

  it("estimates fees per target, rounding up", async () => {
    expect(await backend.feeRateSatVb(1)).toBe(21n);
    expect(await backend.feeRateSatVb(3)).toBe(5n);
    expect(await backend.feeRateSatVb(1000)).toBe(2n);
  });

  it("treats 'already in block chain' as sent and other rejections as errors", async () => {
    expect(await backend.broadcast(redeem.toHex())).toBe(redeem.getId());
    expect(await backend.broadcast(funding2.toHex())).toBe(funding2.getId());
    await expect(backend.broadcast(funding1.toHex())).rejects.toThrow(BroadcastRejectedError);
    await expect(backend.broadcast(funding1.toHex())).rejects.toThrow(/min relay fee not met/);
  });

  it("reports transaction status", async () => {
    expect(await backend.transactionStatus(redeem.getId())).toEqual({ state: "confirmed", height: 118 });
    expect(await backend.transactionStatus(funding2.getId())).toEqual({ state: "mempool" });
    expect(await backend.transactionStatus(fakeTxid(404))).toEqual({ state: "unknown" });
  });

  it("adds up a mempool transaction's descendants, grandchildren included, by following its outputs' spends", async () => {
    expect(await backend.mempoolDescendants(pending.getId())).toEqual({
      count: 3,
      vsize: child.virtualSize() + sibling.virtualSize() + grandchild.virtualSize(),
      feeSats: 1_500n,
    });
    // Not in the mempool: mined, or unknown to the server.
    expect(await backend.mempoolDescendants(redeem.getId())).toBeNull();
    expect(await backend.mempoolDescendants(fakeTxid(404))).toBeNull();
  });

  it("names the path when the server is unreachable", async () => {
    const dead = new EsploraBackend({ url: "http://127.0.0.1:1", timeoutMs: 2_000 });
    await expect(dead.tipHeight()).rejects.toThrow(EsploraError);
    await expect(dead.tipHeight()).rejects.toThrow(/\/blocks/);
  });
});
