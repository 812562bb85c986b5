/**
 * `solver localnet` as a developer runs it: up until Ctrl-C with the service, the chains and the solver
 * where the descriptor says; a swap completes against it; SIGINT stops everything, exit 0.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli.js";
import type { LocalnetDescriptor } from "../../../src/localnet/descriptor.js";
import { LocalUser } from "../../../src/localnet/user.js";
import { OrderbookClient } from "../../../src/orderbook/client.js";
import type { Order } from "../../../src/orderbook/types.js";
import { waitFor } from "../../support/localnet.js";
import { recordingIo } from "../../unit/cli/io.js";
import { SolverProcess } from "./support/solver-process.js";

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
    const user = new LocalUser(descriptor, descriptor.users[0]!.privateKey, orderbook);
    const quote = await user.bestQuote("arbitrum_localnet:usdc", "ethereum_localnet:usdc", 30_000_000n);
    const order = await user.createOrder(quote);
    await user.initiateOnChain(order);
    await user.waitForOrder(order.order_id, completed, { timeoutMs: 90_000 });

    // `solver orders --config DIR/solver.json` reads the running solver's journal, keys from the key file.
    const io = recordingIo({});
    const profile = join(dir, "solver.json");
    expect(await runCli(["orders", "--config", profile, "--order", order.order_id], { io })).toBe(0);
    expect(io.out.join("\n")).toMatch(/fill\s+ethereum_localnet\s+confirmed/);

    localnet.signal("SIGINT");
    expect(await localnet.exited).toEqual({ code: 0, signal: null });
    expect(localnet.stdout.slice(-2)).toEqual(["stopping the localnet...", "stopped"]);
    for (const chain of descriptor.chains)
      await expect(fetch(chain.rpcUrl, { method: "POST" })).rejects.toThrow();
    await expect(fetch(`${ops}/health`)).rejects.toThrow();
  }, 240_000);
});
