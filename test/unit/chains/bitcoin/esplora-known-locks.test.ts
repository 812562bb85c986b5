/**
 * An attacker floods an HTLC address past what one read of it takes (more transactions than the pages a
 * read follows), then redeems the solver's fill, or waits for the solver's source redeem to fail and
 * refunds. Against a fake Esplora server: the locks the solver knows of (its own fill, the deposits its
 * fill relied on) are still read with their spends, and the redeem's secret is found; without them the
 * read fails as before, and never answers with a part of the address taken for the whole.
 */
import { afterAll, describe, expect, it } from "vitest";
import { EsploraBackend, EsploraLimitError } from "../../../../src/chains/bitcoin/esplora-backend.js";
import { DEFAULT_ESPLORA_READ_LIMITS } from "../../../../src/chains/bitcoin/esplora-read-budget.js";
import { startFakeEsplora, tipBlocks, type FakeEsplora } from "./esplora-fake.js";

const ADDRESS = "bcrt1pfloodedhtlcaddress";
const OTHER = "bcrt1psomeoneelse";
const SCRIPT = `5120${"ab".repeat(32)}`;
const PAGE = 25;
const SECRET = "5e".repeat(32);

const servers: FakeEsplora[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const txid = (n: number) => n.toString(16).padStart(64, "0");
const FILL = txid(0xf111);
const REDEEM = txid(0xbeef);
const DEPOSIT = txid(0xd000);

interface Tx {
  txid: string;
  vin: { txid: string; vout: number; witness: string[]; is_coinbase: boolean }[];
  vout: { scriptpubkey: string; scriptpubkey_address: string; value: number }[];
  status: { confirmed: boolean; block_height?: number };
}

const out = (address: string, value: number) => ({
  scriptpubkey: SCRIPT,
  scriptpubkey_address: address,
  value,
});
const input = (spent: string, vout: number, witness: string[] = []) => ({
  txid: spent,
  vout,
  witness,
  is_coinbase: false,
});
const mined = { confirmed: true, block_height: 100 };

/** The solver's fill: change first, the HTLC output second. */
const fill: Tx = {
  txid: FILL,
  vin: [input(txid(0xc0c0), 0)],
  vout: [out(OTHER, 5_000), out(ADDRESS, 1_000_000)],
  status: mined,
};
/** The user's redeem of the fill, with the secret in its witness. */
const redeem: Tx = {
  txid: REDEEM,
  vin: [input(FILL, 1, ["aa".repeat(64), SECRET, "51", "c0"])],
  vout: [out(OTHER, 990_000)],
  status: { confirmed: false },
};
/** A user's deposit paying the address 600 dust outputs and one real one (vout 600). */
const deposit: Tx = {
  txid: DEPOSIT,
  vin: [input(txid(0xd0d0), 0)],
  vout: [...Array.from({ length: 600 }, () => out(ADDRESS, 400)), out(ADDRESS, 2_000_000)],
  status: mined,
};

/** An address paid by more transactions than a read follows; the fill and deposit are not on its first pages. */
async function floodedAddress(): Promise<FakeEsplora> {
  const count = (DEFAULT_ESPLORA_READ_LIMITS.maxPages + 5) * PAGE;
  const junk: Tx[] = Array.from({ length: count }, (_, i) => ({
    txid: txid(i + 1),
    vin: [input(txid(1_000_000 + i), 0)],
    vout: [out(ADDRESS, 330)],
    status: mined,
  }));
  const byTxid = new Map([fill, redeem, deposit, ...junk].map((tx) => [tx.txid, tx]));
  const server = await startFakeEsplora((_method, path) => {
    if (path === "/blocks") return [200, JSON.stringify(tipBlocks(120))];
    if (path === `/address/${ADDRESS}/txs`) return [200, JSON.stringify(junk.slice(0, PAGE))];
    const chain = /^\/address\/[^/]+\/txs\/chain\/([0-9a-f]{64})$/.exec(path);
    if (chain !== null) {
      const at = junk.findIndex((t) => t.txid === chain[1]) + 1;
      return [200, JSON.stringify(junk.slice(at, at + PAGE))];
    }
    const spends = /^\/tx\/([0-9a-f]{64})\/outspends$/.exec(path);
    if (spends !== null) {
      const tx = byTxid.get(spends[1] ?? "");
      return tx === undefined
        ? [404, "not found"]
        : [200, JSON.stringify(tx.vout.map((_, vout) => spendOf(tx.txid, vout)))];
    }
    const one = /^\/tx\/([0-9a-f]{64})\/outspend\/(\d+)$/.exec(path);
    if (one !== null) return [200, JSON.stringify(spendOf(one[1] ?? "", Number(one[2])))];
    const tx = /^\/tx\/([0-9a-f]{64})$/.exec(path);
    if (tx !== null) {
      const found = byTxid.get(tx[1] ?? "");
      return found === undefined ? [404, "Transaction not found"] : [200, JSON.stringify(found)];
    }
    return [404, "not found"];
  });
  servers.push(server);
  return server;
}

function spendOf(spent: string, vout: number) {
  if (spent === FILL && vout === 1)
    return { spent: true, txid: REDEEM, vin: 0, status: { confirmed: false } };
  return { spent: false };
}

describe("an HTLC address flooded past one read's bounds", () => {
  it("still shows the solver's own fill and the redeem that reveals the secret", async () => {
    const server = await floodedAddress();
    const activity = await new EsploraBackend({ url: server.url }).addressActivity(ADDRESS, {
      ownTxids: [FILL],
    });
    expect(activity.outputs).toEqual([
      {
        txid: FILL,
        vout: 1,
        value: 1_000_000n,
        height: 100,
        spentBy: { txid: REDEEM, vin: 0, height: null, witness: ["aa".repeat(64), SECRET, "51", "c0"] },
      },
    ]);
  });

  it("still shows the deposit outputs a fill relied on, reading only those of a wide deposit", async () => {
    const server = await floodedAddress();
    const activity = await new EsploraBackend({ url: server.url }).addressActivity(ADDRESS, {
      lockIds: [`${DEPOSIT}:600`, "not-a-bitcoin-lock"],
    });
    expect(activity.outputs).toEqual([
      { txid: DEPOSIT, vout: 600, value: 2_000_000n, height: 100, spentBy: null },
    ]);
    expect(
      server.seen.filter((s) => s.path.startsWith(`/tx/${DEPOSIT}/outspend`)).map((s) => s.path),
    ).toEqual([`/tx/${DEPOSIT}/outspend/600`]);
  });

  it("fails as before when the solver knows no lock there (nothing is filled against a partial view)", async () => {
    const server = await floodedAddress();
    const error = await new EsploraBackend({ url: server.url })
      .addressActivity(ADDRESS)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EsploraLimitError);
  });

  it("reads a known transaction that the address listing leaves out, beside what it lists", async () => {
    // A server lists at most 50 unconfirmed payments of an address: more of them hide the rest.
    const listed: Tx = {
      txid: txid(7),
      vin: [input(txid(8), 0)],
      vout: [out(ADDRESS, 5_000)],
      status: mined,
    };
    const server = await startFakeEsplora((_method, path) => {
      if (path === "/blocks") return [200, JSON.stringify(tipBlocks(120))];
      if (path === `/address/${ADDRESS}/txs`) return [200, JSON.stringify([listed])];
      if (path === `/tx/${listed.txid}/outspends`) return [200, JSON.stringify([{ spent: false }])];
      if (path === `/tx/${FILL}`) return [200, JSON.stringify(fill)];
      if (path === `/tx/${FILL}/outspends`)
        return [200, JSON.stringify([{ spent: false }, spendOf(FILL, 1)])];
      if (path === `/tx/${REDEEM}`) return [200, JSON.stringify(redeem)];
      return [404, "not found"];
    });
    servers.push(server);
    const activity = await new EsploraBackend({ url: server.url }).addressActivity(ADDRESS, {
      ownTxids: [FILL],
    });
    expect(activity.outputs.map((o) => [o.txid, o.vout, o.spentBy?.witness[1] ?? null])).toEqual([
      [listed.txid, 0, null],
      [FILL, 1, SECRET],
    ]);
  });

  it("has nothing for a known transaction no server has (replaced or never sent)", async () => {
    const server = await floodedAddress();
    const activity = await new EsploraBackend({ url: server.url }).addressActivity(ADDRESS, {
      ownTxids: [txid(0xdead01)],
      lockIds: [`${txid(0xdead02)}:0`],
    });
    expect(activity.outputs).toEqual([]);
  });
});
