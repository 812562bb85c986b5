/**
 * The operator's commands on a localnet (every family) whose solver does not run: what they show is
 * compared with the chains' own reads, and what they send with both sides' balances.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, erc20Abi, http, type Address } from "viem";
import { coinOf } from "../../../src/chains/coins.js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { Keypair } from "@solana/web3.js";
import { startSolverApp } from "../../../src/app/solver-app.js";
import { BitcoinKey } from "../../../src/chains/bitcoin/keys.js";
import { bitcoinNetwork } from "../../../src/chains/bitcoin/network.js";
import { Journal } from "../../../src/journal/journal.js";
import { parseAssetAmount } from "../../../src/cli/amount-option.js";
import { openChainSession } from "../../../src/cli/chain-session.js";
import { loadCliConfig } from "../../../src/cli/config-option.js";
import { recordingIo } from "../../unit/cli/io.js";
import { claimOk } from "../../support/journal-claims.js";
import { makeOrder } from "../../support/order-fixture.js";
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
  const owners: Record<string, string> = {
    evm: d.evmAddress,
    bitcoin: d.bitcoinAddress,
    solana: d.solanaAddress,
    starknet: d.starknetAddress,
    sui: d.suiAddress,
  };
  return owners[chain.family]!;
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
      if (family === "sui") expect(account).toEqual({ address: d.suiAddress });
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

/** A fresh recipient on an EVM chain: nothing there before the withdrawal. */
function freshEvmAddress(): string {
  return privateKeyToAccount(generatePrivateKey()).address;
}

function free(rows: Record<string, unknown>[], assetId: string): string {
  return String(rows.find((r) => r.asset === assetId)?.free);
}

async function balancesJson(): Promise<Record<string, unknown>[]> {
  const { code, out } = await solver(profile, "balances", "--json");
  expect(code).toBe(0);
  return JSON.parse(out) as Record<string, unknown>[];
}

function attemptsInJournal(): number {
  const journal = new Journal(t.net.solverConfig.journal.path);
  try {
    return journal.recentAttempts(10_000).length;
  } finally {
    journal.close();
  }
}

describe("solver approve", () => {
  it("shows the allowances, sets an exact one and revokes it, each visible on chain", async () => {
    const asset = assetOf(t, "arbitrum_localnet:wbtc");
    const owner = t.net.descriptor.solver.evmAddress as Address;
    const chain = t.net.solverConfig.chains.find((c) => c.name === "arbitrum_localnet")!;
    const client = createPublicClient({ transport: http(chain.rpcUrls[0]) });
    const onChain = () =>
      client.readContract({
        address: asset.tokenAddress as Address,
        abi: erc20Abi,
        functionName: "allowance",
        args: [owner, asset.htlcAddress as Address],
      });
    const shown = await solver(profile, "approve", "--json");
    expect(shown.code).toBe(0);
    const views = JSON.parse(shown.out) as { asset: string; spender: string; allowance: string }[];
    const tokens = t.net.solverConfig.chains.flatMap((c) =>
      c.family === "evm" ? c.assets.filter((a) => a !== coinOf(c)).map((a) => a.id) : [],
    );
    expect(views.map((v) => v.asset)).toEqual(tokens);
    const before = views.find((v) => v.asset === asset.id)!;
    expect(before.spender).toBe(asset.htlcAddress);
    const text = await solver(profile, "approve");
    console.log(text.out);

    const set = await solver(
      profile,
      "approve",
      "--chain",
      "arbitrum_localnet",
      "--asset",
      "wbtc",
      "--amount",
      "0.5",
    );
    expect(set.code).toBe(0);
    console.log(set.out);
    expect(set.out).toMatch(/arbitrum_localnet\s+wbtc\s+0x[0-9a-fA-F]{40}\s+0.5$/);
    expect(await onChain()).toBe(50_000_000n);

    const revoked = await solver(
      profile,
      "approve",
      "--chain",
      "arbitrum_localnet",
      "--asset",
      "wbtc",
      "--revoke",
      "--json",
    );
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.out)).toEqual([
      {
        chain: "arbitrum_localnet",
        asset: asset.id,
        spender: asset.htlcAddress,
        allowance: "0",
        unlimited: false,
      },
    ]);
    expect(await onChain()).toBe(0n);

    const both = await solver(
      profile,
      "approve",
      "--chain",
      "arbitrum_localnet",
      "--asset",
      "wbtc",
      "--revoke",
      "--amount",
      "1",
    );
    expect(both.code).toBe(2);
    expect(both.err).toContain("give exactly one of --amount DECIMAL, --revoke or --unlimited");
    const coin = await solver(
      profile,
      "approve",
      "--chain",
      "arbitrum_localnet",
      "--asset",
      "eth",
      "--amount",
      "1",
    );
    expect(coin.code).toBe(2);
    expect(coin.err).toContain("arbitrum_localnet:eth is the chain's coin: it has no allowance");

    // Back as the solver's start-up leaves it, for the tests after this one.
    const unlimited = await solver(
      profile,
      "approve",
      "--chain",
      "arbitrum_localnet",
      "--asset",
      "wbtc",
      "--unlimited",
    );
    expect(unlimited.code).toBe(0);
    expect(await onChain()).toBe(2n ** 256n - 1n);
  }, 120_000);
});

describe("solver withdraw on EVM", () => {
  const usdc = "ethereum_localnet:usdc";
  const eth = "ethereum_localnet:eth";

  it("moves exactly the amount of a token and of the coin, both sides measured", async () => {
    const owner = t.net.descriptor.solver.evmAddress;
    const to = freshEvmAddress();
    const [solverUsdc, solverEth] = [await chainBalance(t, usdc, owner), await chainBalance(t, eth, owner)];
    const token = await solver(
      profile,
      "withdraw",
      "--chain",
      "ethereum_localnet",
      "--asset",
      "usdc",
      "--amount",
      "1.5",
      "--to",
      to,
    );
    expect(token.err).toBe("");
    expect(token.code).toBe(0);
    console.log(token.out);
    expect(token.out).toMatch(
      new RegExp(`^withdrew 1.5 usdc to ${to} on ethereum_localnet: 0x[0-9a-f]{64}, mined at \\d+`),
    );
    expect(await chainBalance(t, usdc, to)).toBe(1_500_000n);
    expect(await chainBalance(t, usdc, owner)).toBe(solverUsdc - 1_500_000n);
    const tokenFee = await feeOf(token.out);
    expect(await chainBalance(t, eth, owner)).toBe(solverEth - tokenFee);

    const coin = await solver(
      profile,
      "withdraw",
      "--chain",
      "ethereum_localnet",
      "--asset",
      "eth",
      "--amount",
      "0.25",
      "--to",
      to,
      "--json",
    );
    expect(coin.code).toBe(0);
    const sent = JSON.parse(coin.out) as { txHash: string; state: string };
    expect(sent.state).not.toBe("pending");
    const coinFee = await feeOf(sent.txHash);
    expect(await chainBalance(t, eth, to)).toBe(250_000_000_000_000_000n);
    expect(await chainBalance(t, eth, owner)).toBe(solverEth - tokenFee - 250_000_000_000_000_000n - coinFee);
    // Journaled like every transaction the solver sends, as the operator's.
    const journal = new Journal(t.net.solverConfig.journal.path);
    try {
      const attempts = journal.recentAttempts(10).filter((a) => a.purpose === "operator");
      expect(attempts.map((a) => a.txHash)).toContain(sent.txHash);
    } finally {
      journal.close();
    }
  }, 120_000);

  it("refuses more than the free amount, naming the numbers, and nothing moves", async () => {
    const owner = t.net.descriptor.solver.evmAddress;
    const to = freshEvmAddress();
    const rows = await balancesJson();
    const freeUsdc = free(rows, usdc);
    const asked = formatUnits(parseAssetAmount(freeUsdc, assetOf(t, usdc)) + 1n, 6);
    const attemptsBefore = attemptsInJournal();
    const before = await chainBalance(t, usdc, owner);
    const refused = await solver(
      profile,
      "withdraw",
      "--chain",
      "ethereum_localnet",
      "--asset",
      "usdc",
      "--amount",
      asked,
      "--to",
      to,
    );
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      `withdrawal refused: ${asked} usdc exceeds the free ${freeUsdc} usdc of ${usdc}`,
    );
    expect(refused.err).toContain("committed to live fills 0 usdc");
    // The coin keeps its fee reserve: the whole balance is never free.
    const ethRow = rows.find((r) => r.asset === eth)!;
    const allEth = await solver(
      profile,
      "withdraw",
      "--chain",
      "ethereum_localnet",
      "--asset",
      "eth",
      "--amount",
      String(ethRow.onChain),
      "--to",
      to,
    );
    expect(allEth.code).toBe(1);
    expect(allEth.err).toContain("fee reserve 0.1 eth");
    expect(await chainBalance(t, usdc, owner)).toBe(before);
    expect(await chainBalance(t, usdc, to)).toBe(0n);
    expect(await chainBalance(t, eth, to)).toBe(0n);
    expect(attemptsInJournal()).toBe(attemptsBefore);
  });

  it("keeps what live fills are committed to", async () => {
    const journal = new Journal(t.net.solverConfig.journal.path);
    const order = makeOrder();
    order.order_id = "c0".repeat(32);
    const owner = t.net.descriptor.solver.evmAddress;
    const held = await chainBalance(t, usdc, owner);
    journal.upsertOrder(order);
    const fill = claimOk(journal, {
      kind: "fill",
      orderId: order.order_id,
      params: {
        chain: "ethereum_localnet",
        asset: usdc,
        swapId: "ab".repeat(32),
        initiator: owner,
        redeemer: owner,
        secretHash: "cd".repeat(32),
        timelock: 100n,
        amount: held - 1_000_000n,
      },
    });
    try {
      const rows = await balancesJson();
      expect(rows.find((r) => r.asset === usdc)).toMatchObject({
        committed: formatUnits(held - 1_000_000n, 6),
        free: "1",
      });
      const refused = await solver(
        profile,
        "withdraw",
        "--chain",
        "ethereum_localnet",
        "--asset",
        "usdc",
        "--amount",
        "2",
        "--to",
        freshEvmAddress(),
      );
      expect(refused.code).toBe(1);
      expect(refused.err).toContain(`2 usdc exceeds the free 1 usdc of ${usdc}`);
      expect(await chainBalance(t, usdc, owner)).toBe(held);
    } finally {
      journal.failAction(fill.action.id, "test: released");
      journal.markOrderDone(order.order_id);
      journal.close();
    }
  });

  it("after a crash between journal and send, sends no second withdrawal while the first is unmined", async () => {
    const owner = t.net.descriptor.solver.evmAddress;
    const to = freshEvmAddress();
    const session = openChainSession(loadCliConfig({ config: profile }, recordingIo({})));
    let txHash = "";
    try {
      const chain = session.chains.get("ethereum_localnet")!;
      const built = await chain.executor.transfers!.buildTransfer({ asset: usdc, amount: 1_000_000n, to });
      // Journaled, then the process died before the send.
      txHash = session.journal.recordOperator(built.signed).txHash;
    } finally {
      session.close();
    }
    const before = await chainBalance(t, usdc, owner);
    const again = await solver(
      profile,
      "withdraw",
      "--chain",
      "ethereum_localnet",
      "--asset",
      "usdc",
      "--amount",
      "1",
      "--to",
      to,
    );
    expect(again.code).toBe(1);
    expect(again.err).toContain(
      `an earlier operator transaction on ethereum_localnet (${txHash}) is not mined yet`,
    );
    expect(await chainBalance(t, usdc, owner)).toBe(before);
    expect(await chainBalance(t, usdc, to)).toBe(0n);
    // The solver, when it runs, sends those same bytes: one withdrawal lands, never two.
    const app = await startSolverApp(t.net.solverConfig, t.log.logger);
    try {
      await waitFor(
        async () => (await chainBalance(t, usdc, to)) === 1_000_000n,
        "the journaled withdrawal to land",
      );
      await waitFor(
        () => app.journal.liveAttemptRows().every((a) => a.txHash !== txHash || a.blockHeight !== null),
        "it to be seen mined",
      );
    } finally {
      await app.stop();
    }
    expect(await chainBalance(t, usdc, to)).toBe(1_000_000n);
    expect(await chainBalance(t, usdc, owner)).toBe(before - 1_000_000n);
  }, 120_000);

  it("refuses a bad address, an unknown asset, too many decimals, and a running solver's journal", async () => {
    const base = ["withdraw", "--chain", "ethereum_localnet", "--asset", "usdc"];
    const to = freshEvmAddress();
    const badAddress = await solver(profile, ...base, "--amount", "1", "--to", "bc1qnotevm");
    expect(badAddress.code).toBe(2);
    expect(badAddress.err).toContain("--to is not an address of ethereum_localnet");
    const unknown = await solver(
      profile,
      "withdraw",
      "--chain",
      "ethereum_localnet",
      "--asset",
      "doge",
      "--amount",
      "1",
      "--to",
      to,
    );
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain(
      "--asset doge is not configured on ethereum_localnet (assets: usdc, wbtc, eth)",
    );
    const fine = await solver(profile, ...base, "--amount", "1.0000001", "--to", to);
    expect(fine.code).toBe(2);
    expect(fine.err).toContain("--amount 1.0000001 has 7 decimals; ethereum_localnet:usdc has 6");
    const journal = new Journal(t.net.solverConfig.journal.path);
    journal.acquireLease({ id: "running-solver", host: "elsewhere", pid: 1 }, 60_000);
    try {
      const leased = await solver(profile, ...base, "--amount", "1", "--to", to);
      expect(leased.code).toBe(1);
      expect(leased.err).toContain(
        "the journal is in use by another solver (instance running-solver on elsewhere, pid 1)",
      );
    } finally {
      journal.releaseLease();
      journal.close();
    }
    expect(await chainBalance(t, usdc, to)).toBe(0n);
  });
});

/** What a mined transaction paid for gas, from its receipt; `text` holds its hash. */
async function feeOf(text: string): Promise<bigint> {
  const hash = /0x[0-9a-f]{64}/.exec(text)?.[0] as `0x${string}`;
  const chain = t.net.solverConfig.chains.find((c) => c.name === "ethereum_localnet")!;
  const client = createPublicClient({ transport: http(chain.rpcUrls[0]) });
  const receipt = await client.getTransactionReceipt({ hash });
  return receipt.gasUsed * receipt.effectiveGasPrice;
}

interface WithdrawJson {
  txHash: string;
  state: string;
  feePaid: string | null;
}

async function withdrawJson(chain: string, asset: string, amount: string, to: string): Promise<WithdrawJson> {
  const run = await solver(
    profile,
    "withdraw",
    "--chain",
    chain,
    "--asset",
    asset,
    "--amount",
    amount,
    "--to",
    to,
    "--json",
  );
  expect(run.err).toBe("");
  expect(run.code).toBe(0);
  const sent = JSON.parse(run.out) as WithdrawJson;
  expect(sent.state).not.toBe("pending");
  const text = await solver(profile, "withdraw", "--help");
  expect(text.out).toContain("Usage: solver withdraw");
  return sent;
}

describe("solver withdraw on Bitcoin and Solana", () => {
  it("moves exactly the amount of BTC to an address, the solver paying it and the fee", async () => {
    const btc = "bitcoin_regtest:btc";
    const owner = t.net.descriptor.solver.bitcoinAddress;
    const to = BitcoinKey.random().walletPayment(bitcoinNetwork("regtest")).address;
    const before = await chainBalance(t, btc, owner);
    const bad = await solver(
      profile,
      "withdraw",
      "--chain",
      "bitcoin_regtest",
      "--asset",
      "btc",
      "--amount",
      "1",
      "--to",
      "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("is not a Bitcoin address of this network");
    const sent = await withdrawJson("bitcoin_regtest", "btc", "0.125", to);
    await t.net.bitcoin.mine(1);
    const fee = BigInt(sent.feePaid ?? "0");
    expect(fee).toBeGreaterThan(0n);
    expect(await chainBalance(t, btc, to)).toBe(12_500_000n);
    expect(await chainBalance(t, btc, owner)).toBe(before - 12_500_000n - fee);
  }, 120_000);

  it("moves exactly the amount of SOL and of the SPL token, creating the recipient's token account", async () => {
    const sol = "solana_localnet:sol";
    const usdc = "solana_localnet:usdc";
    const owner = t.net.descriptor.solver.solanaAddress;
    const to = Keypair.generate().publicKey.toBase58();
    const [solBefore, usdcBefore] = [await chainBalance(t, sol, owner), await chainBalance(t, usdc, owner)];
    const coin = await withdrawJson("solana_localnet", "sol", "0.5", to);
    const coinFee = BigInt(coin.feePaid ?? "0");
    expect(coinFee).toBeGreaterThan(0n);
    expect(await chainBalance(t, sol, to)).toBe(500_000_000n);
    expect(await chainBalance(t, sol, owner)).toBe(solBefore - 500_000_000n - coinFee);

    const token = await withdrawJson("solana_localnet", "usdc", "2.25", to);
    const tokenFee = BigInt(token.feePaid ?? "0");
    const rent = BigInt(await t.user(0).solana.rpc.getMinimumBalanceForRentExemption(165));
    expect(await chainBalance(t, usdc, to)).toBe(2_250_000n);
    expect(await chainBalance(t, usdc, owner)).toBe(usdcBefore - 2_250_000n);
    expect(await chainBalance(t, sol, owner)).toBe(solBefore - 500_000_000n - coinFee - tokenFee - rent);
    const bad = await solver(
      profile,
      "withdraw",
      "--chain",
      "solana_localnet",
      "--asset",
      "sol",
      "--amount",
      "1",
      "--to",
      "0xnotsolana",
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--to is not an address of solana_localnet");
  }, 120_000);
});
