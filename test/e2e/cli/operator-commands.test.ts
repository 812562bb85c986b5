/**
 * The operator's commands on a localnet (every family) whose solver does not run: what they show is
 * compared with the chains' own reads, and what they send with both sides' balances.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, http, type Address } from "viem";
import { startSolverApp } from "../../../src/app/solver-app.js";
import { startTestLocalnet, waitFor, type TestLocalnet } from "../../support/localnet.js";
import { assetOf, chainBalance, solver, writeProfile } from "./operator-support.js";
import { formatUnits } from "../../../src/pricing/decimal.js";

let t: TestLocalnet;
let profile: string;

beforeAll(async () => {
  t = await startTestLocalnet({ startSolver: false });
  // The journal the solver would use: its commands never create one.
  await t.net.startSolver();
  await t.net.solver!.stop();
  t.net.solver = null;
  profile = writeProfile(t);
}, 240_000);

afterAll(async () => {
  await t?.net.stop();
});

/** The solver's account per family, as the localnet made it. */
function solverOwner(assetId: string): string {
  const chain = t.net.solverConfig.chains.find((c) => c.name === assetOf(t, assetId).chain)!;
  const d = t.net.descriptor.solver;
  return chain.family === "evm"
    ? d.evmAddress
    : chain.family === "bitcoin"
      ? d.bitcoinAddress
      : d.solanaAddress;
}

describe("solver addresses", () => {
  it("derives the solver's account on every chain from the configured keys, and prints no key", async () => {
    const { code, out } = await solver(profile, "addresses", "--json");
    expect(code).toBe(0);
    const accounts = JSON.parse(out) as { chain: string; family: string; account: Record<string, string> }[];
    const d = t.net.descriptor.solver;
    expect(accounts.map((a) => a.chain)).toEqual(t.net.solverConfig.chains.map((c) => c.name));
    for (const { family, account } of accounts) {
      if (family === "evm") expect(account).toEqual({ address: d.evmAddress });
      if (family === "bitcoin")
        expect(account).toEqual({ xOnlyKey: d.bitcoinKey, address: d.bitcoinAddress });
      if (family === "solana") expect(account).toEqual({ publicKey: d.solanaAddress });
    }
    const text = await solver(profile, "addresses");
    expect(text.code).toBe(0);
    console.log(text.out);
    for (const key of Object.values(t.net.solverConfig.solver.keys)) {
      if (key !== "") expect(text.out.toLowerCase()).not.toContain(key.toLowerCase().replace(/^0x/, ""));
    }
    expect(text.out).toContain(d.bitcoinAddress);
  });
});

describe("solver balances", () => {
  it("shows every asset's balance as the chain has it, and free = on chain - committed - fee reserve", async () => {
    const { code, out, err } = await solver(profile, "balances", "--json");
    expect(err).toBe("");
    expect(code).toBe(0);
    const rows = JSON.parse(out) as Record<string, string | boolean | number | null>[];
    const assets = t.net.solverConfig.chains.flatMap((c) => c.assets);
    expect(rows.map((r) => r.asset)).toEqual(assets.map((a) => a.id));
    for (const row of rows) {
      const asset = assetOf(t, String(row.asset));
      const own = await chainBalance(t, asset.id, solverOwner(asset.id));
      expect(own).toBeGreaterThan(0n);
      expect(row.onChain, asset.id).toBe(formatUnits(own, asset.decimals));
      expect(row.committed).toBe("0");
      const floor = t.net.solverConfig.limits.inventoryFloor[asset.id] ?? 0n;
      const reserve = row.coin === true ? floor : 0n;
      if (row.coin === true) expect(reserve).toBeGreaterThan(0n);
      expect(row.feeReserve).toBe(formatUnits(reserve, asset.decimals));
      expect(row.free).toBe(formatUnits(own - reserve, asset.decimals));
      expect(row.floor).toBe(formatUnits(floor, asset.decimals));
    }
    const text = await solver(profile, "balances");
    expect(text.code).toBe(0);
    console.log(text.out);
    expect(text.out.split("\n")[0]).toMatch(
      /^CHAIN\s+ASSET\s+ON CHAIN\s+COMMITTED\s+IN FLIGHT\s+FEE RESERVE\s+FREE\s+FLOOR\s+TARGET$/,
    );
  });
});

describe("solver run --dry-run", () => {
  it("decides to fill, logs what it would sign and send, and signs, sends and journals as sent nothing", async () => {
    const from = "ethereum_localnet:usdc";
    const to = "arbitrum_localnet:usdc";
    const solverAddress = t.net.descriptor.solver.evmAddress;
    const app = await startSolverApp(t.net.solverConfig, t.log.logger, undefined, { dryRun: true });
    try {
      const user = t.user(2);
      const solverBefore = await chainBalance(t, to, solverAddress);
      const userBefore = await user.balance(to);
      const nonceBefore = await evmNonce(to, solverAddress);
      const quote = await user.bestQuote(from, to, 100_000_000n);
      const order = await user.createOrder(quote);
      await user.initiateWithSignature(order);
      await waitFor(
        () =>
          t.log.find(
            (l) => l.msg === "dry run: would sign and send a fill" && l.orderId === order.order_id,
          ) !== undefined,
        "the dry run's fill line",
        90_000,
      );
      // A few more rounds: the fill is decided again and still not sent.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const line = t.log.find(
        (l) => l.msg === "dry run: would sign and send a fill" && l.orderId === order.order_id,
      )!;
      expect(line).toMatchObject({ kind: "fill", chain: "arbitrum_localnet", asset: to, dryRun: true });
      expect(String(line.amount)).toBe(quote.destination.amount);
      expect(await chainBalance(t, to, solverAddress)).toBe(solverBefore);
      expect(await user.balance(to)).toBe(userBefore);
      expect(await evmNonce(to, solverAddress)).toBe(nonceBefore);
      const journal = app.journal;
      expect(journal.recentAttempts(1000)).toEqual([]);
      const actions = journal.orderActions(order.order_id);
      expect(actions.length).toBeGreaterThan(0);
      for (const action of actions) expect(["planned", "failed"]).toContain(action.status);
      expect(
        t.log.find((l) => typeof l.msg === "string" && l.msg.startsWith("transaction broadcast")),
      ).toBeUndefined();
    } finally {
      await app.stop();
    }
  }, 180_000);
});

async function evmNonce(assetId: string, address: string): Promise<number> {
  const chain = t.net.solverConfig.chains.find((c) => c.name === assetOf(t, assetId).chain)!;
  const client = createPublicClient({ transport: http(chain.rpcUrls[0]) });
  return client.getTransactionCount({ address: address as Address });
}
