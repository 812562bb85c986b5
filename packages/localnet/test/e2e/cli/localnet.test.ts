/**
 * `solver localnet` as a developer runs it: up until Ctrl-C with the service, the chains and the solver
 * where the descriptor says (the Solana HTLC programs at the profile's ids, every user holding SOL and the
 * SPL token, Starknet WBTC and STRK, and SUI); a swap completes against it; SIGINT stops everything, exit 0.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "htlc-solver/cli.js";
import type { LocalnetDescriptor } from "../../../src/descriptor.js";
import { LOCALNET_SOLANA_FUNDS } from "../../../src/families/solana/solana-setup.js";
import { LOCALNET_SUI_FUNDS } from "../../../src/families/sui/sui-setup.js";
import { LOCALNET_STARKNET_FUNDS } from "../../../src/families/starknet/starknet-setup.js";
import { createLocalUser } from "../../../src/user.js";
import { OrderbookClient } from "htlc-solver/orderbook/client.js";
import type { Order } from "htlc-solver/orderbook/types.js";
import { waitFor } from "../../../../../test/support/localnet.js";
import { recordingIo } from "../../../../../test/unit/cli/io.js";
import { REPO_ROOT, SolverProcess } from "../../../../../test/e2e/cli/support/solver-process.js";

const completed = (o: Order) =>
  o.destination_swap.redeem_tx_hash !== "" && o.source_swap.redeem_tx_hash !== "";

describe("solver localnet", () => {
  const dir = join(mkdtempSync(join(tmpdir(), "localnet-cli-")), "net");
  let localnet: SolverProcess | undefined;

  afterAll(async () => {
    await localnet?.kill();
  });

  it("runs the system until SIGINT, then stops it and exits 0", async () => {
    localnet = new SolverProcess(["localnet", "--dir", dir]);
    await localnet.waitForLine((line) => line === "up until Ctrl-C", "the localnet up", 150_000);
    const out = localnet.stdout.join("\n");
    expect(out).toContain(`descriptor  ${join(dir, "localnet.json")}`);
    expect(out).toContain(`journal     npx solver status --config ${join(dir, "solver.json")}`);

    const descriptor = JSON.parse(readFileSync(join(dir, "localnet.json"), "utf8")) as LocalnetDescriptor;
    expect(out).toContain(`service     ${descriptor.service.url}`);
    const ops = descriptor.solver.opsUrl;
    await waitFor(async () => (await fetch(`${ops}/health`)).ok, "the solver's /health 200", 30_000);

    const orderbook = new OrderbookClient({
      baseUrl: descriptor.service.url,
      appId: descriptor.service.appId,
    });
    const user = createLocalUser(descriptor, descriptor.users[0]!.privateKey, orderbook);

    // The Solana cluster runs both HTLC programs at the ids of the localnet profile.
    const localnetProfile = JSON.parse(readFileSync(join(REPO_ROOT, "config/localnet.json"), "utf8")) as {
      chains: { family: string; nativeProgramId?: string; splProgramId?: string }[];
    };
    const solanaProfile = localnetProfile.chains.find((c) => c.family === "solana");
    const programs = [descriptor.solana.nativeProgramId, descriptor.solana.splProgramId];
    expect(programs).toEqual([solanaProfile?.nativeProgramId, solanaProfile?.splProgramId]);
    for (const id of programs) {
      const response = await fetch(descriptor.solana.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "getAccountInfo",
          params: [id, { encoding: "base64" }],
        }),
      });
      const body = (await response.json()) as { result: { value: { executable: boolean } | null } };
      expect(body.result.value?.executable, `program ${id}`).toBe(true);
    }
    for (const { privateKey } of descriptor.users) {
      const funded = createLocalUser(descriptor, privateKey, orderbook);
      expect(await funded.balance("solana_localnet:sol")).toBe(LOCALNET_SOLANA_FUNDS.user.sol * 10n ** 9n);
      expect(await funded.balance("solana_localnet:usdc")).toBe(LOCALNET_SOLANA_FUNDS.user.usdc * 10n ** 6n);
      expect(await funded.balance("starknet_localnet:wbtc")).toBe(
        LOCALNET_STARKNET_FUNDS.user.wbtc * 10n ** 8n,
      );
      expect(await funded.starknet.tokenBalance(descriptor.starknet.feeTokenAddress)).toBe(
        LOCALNET_STARKNET_FUNDS.user.strk * 10n ** 18n,
      );
      expect(await funded.balance("sui_localnet:sui")).toBe(LOCALNET_SUI_FUNDS.user * 10n ** 9n);
    }
    const quote = await user.bestQuote("arbitrum_localnet:usdc", "ethereum_localnet:usdc", 30_000_000n);
    const order = await user.createOrder(quote);
    await user.initiateOnChain(order);
    await user.waitForOrder(order.order_id, completed, { timeoutMs: 90_000 });

    // `solver orders --config DIR/solver.json` reads the running solver's journal, keys from the key file.
    // The service shows the redeems once broadcast; the journal marks the fill confirmed at the solver's own
    // depth, a round or two later.
    const profile = join(dir, "solver.json");
    await waitFor(
      async () => {
        const io = recordingIo({});
        expect(await runCli(["orders", "--config", profile, "--order", order.order_id], { io })).toBe(0);
        return /fill\s+ethereum_localnet\s+confirmed/.test(io.out.join("\n"));
      },
      "the journal's fill confirmed",
      30_000,
    );

    localnet.signal("SIGINT");
    expect(await localnet.exited).toEqual({ code: 0, signal: null });
    expect(localnet.stdout.slice(-2)).toEqual(["stopping the localnet...", "stopped"]);
    for (const chain of [...descriptor.chains, descriptor.solana, descriptor.starknet, descriptor.sui])
      await expect(fetch(chain.rpcUrl, { method: "POST" })).rejects.toThrow();
    await expect(fetch(`${ops}/health`)).rejects.toThrow();
  }, 240_000);
});
