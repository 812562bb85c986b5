/**
 * Solana swaps through the API as a user makes them, against the solver on the localnet: SOL to an EVM
 * token, an EVM token to an SPL token, BTC to SOL and an SPL token to BTC. Each checks what the user
 * received and what the solver's accounts on both chains gained and spent, and prints the time from the
 * user's initiate to the solver's source redeem and the HTLC program's compute units.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderedAmount } from "../../support/quote-drift.js";
import type { Order } from "../../../src/orderbook/types.js";
import { startTestLocalnet, type TestLocalnet } from "../../support/localnet.js";
import { actionsOf, actionsSettled, BTC, completed } from "./bitcoin-support.js";
import {
  bitcoinFeeOfAction,
  feeOf,
  htlcEventsOf,
  programUnits,
  SOL,
  solverBitcoin,
  solverSolana,
  splVaultExists,
  SPL_USDC,
} from "./solana-support.js";
import { chargedUnits } from "../../support/network-fees.js";

const timings: string[] = [];

describe("Solana swaps on the localnet", () => {
  let t: TestLocalnet;
  beforeAll(async () => {
    t = await startTestLocalnet();
  });
  afterAll(async () => {
    console.log(`Solana swaps, user initiate to solver source redeem:\n${timings.join("\n")}`);
    await t?.net.stop();
  });

  function report(label: string, started: number, order: Order): void {
    const units = [order.source_swap, order.destination_swap]
      .filter((swap) => swap.chain === "solana_localnet")
      .flatMap((swap) => [
        `initiate ${programUnits(t, swap.initiate_tx_hash.split(":")[0] ?? "")} CU`,
        `redeem ${programUnits(t, swap.redeem_tx_hash)} CU`,
      ]);
    timings.push(`  ${label.padEnd(34)} ${Date.now() - started} ms (${units.join(", ")})`);
  }

  it("the service lists the Solana chain: its schemas, programs, chain id and both assets", async () => {
    const chain = (await t.orderbook.chains()).find((c) => c.chain === "solana_localnet");
    const { nativeProgramId, splProgramId } = t.net.descriptor.solana;
    expect(chain).toMatchObject({
      id: "103",
      supported_htlc_schemas: ["solana:htlc", "solana:htlc_spltoken"],
      supported_token_schemas: ["solana:spltoken"],
      htlc: { schema: "solana:htlc_spltoken", address: splProgramId },
      source_timelock: 7200,
      destination_timelock: 600,
    });
    const mint = t.net.descriptor.solana.assets.find((a) => a.id === SPL_USDC)!.tokenAddress;
    expect(chain!.assets.map((a) => [a.id, a.token_address, a.htlc_address])).toEqual([
      [SOL, "native", nativeProgramId],
      [SPL_USDC, mint, splProgramId],
    ]);
  });

  it("SOL -> ERC20: the user locks SOL, the service redeems the token to the user, the solver redeems SOL", async () => {
    const user = t.user(0);
    const to = "arbitrum_localnet:usdc";
    const amount = 2_000_000_000n; // 2 SOL at 150 USD
    const quote = await user.bestQuote(SOL, to, amount);
    const quoted = 299_100_000n - chargedUnits(quote.fixed_fee, 6); // less 30 bps and fees
    expect(BigInt(quote.destination.amount)).toBe(quoted);
    const order = await user.createOrder(quote);
    expect(order.source_swap).toMatchObject({
      initiator: user.solana.address,
      redeemer: t.net.descriptor.solver.solanaAddress,
    });
    const [userTokens, solverSol] = [await user.balance(to), await solverSolana(t, SOL)];
    const solverTokens = await t.net.solver!.chains.get("arbitrum_localnet")!.executor.balance(to);
    const started = Date.now();
    await user.initiateSolana(order);
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
    report("SOL -> arbitrum USDC", started, done);
    expect(await user.balance(to)).toBe(userTokens + orderedAmount(order, quoted));
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);
    // The solver's redeem pays it the amount; the rent goes back to the user, who sponsored it.
    expect((await solverSolana(t, SOL)) - solverSol).toBe(amount - feeOf(t, done.source_swap.redeem_tx_hash));
    const tokensNow = await t.net.solver!.chains.get("arbitrum_localnet")!.executor.balance(to);
    expect(solverTokens - tokensNow).toBe(orderedAmount(order, quoted));
    expect(htlcEventsOf(t, done.source_swap).map((e) => e.name)).toEqual(["Initiated", "Redeemed"]);
  });

  it("ERC20 -> SPL: the solver fills the SPL token, the service redeems it to the user", async () => {
    const user = t.user(1);
    const quote = await user.bestQuote("ethereum_localnet:usdc", SPL_USDC, 150_000_000n);
    const amount = BigInt(quote.destination.amount);
    expect(amount).toBe(149_550_000n - chargedUnits(quote.fixed_fee, 6));
    const order = await user.createOrder(quote);
    expect(order.destination_swap).toMatchObject({
      initiator: t.net.descriptor.solver.solanaAddress,
      redeemer: user.solana.address,
    });
    const solverSource = () =>
      t.net.solver!.chains.get("ethereum_localnet")!.executor.balance("ethereum_localnet:usdc");
    const [userSpl, solverSpl, solverSol, solverUsdc] = [
      await user.balance(SPL_USDC),
      await solverSolana(t, SPL_USDC),
      await solverSolana(t, SOL),
      await solverSource(),
    ];
    // A mint's first swap creates the program's vault of it, rent paid by that swap's rent sponsor.
    const vaultRent = (await splVaultExists(t)) ? 0n : 2_039_280n;
    const started = Date.now();
    await user.initiateWithSignature(order);
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
    report("ethereum USDC -> SPL USDC", started, done);
    expect(await user.balance(SPL_USDC)).toBe(userSpl + amount);
    expect(solverSpl - (await solverSolana(t, SPL_USDC))).toBe(amount);
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);
    // Its one fill cost the solver that transaction's fee (and the vault's rent if it created it); the
    // swap data's rent came back at the redeem.
    const events = htlcEventsOf(t, done.destination_swap);
    expect(events.map((e) => e.name)).toEqual(["Initiated", "Redeemed"]);
    expect(solverSol - (await solverSolana(t, SOL))).toBe(events[0]!.fee + vaultRent);
    expect((await solverSource()) - solverUsdc).toBe(150_000_000n);
  });

  it("BTC -> SOL: the user pays the deposit address, the solver fills SOL", async () => {
    const user = t.user(2);
    const quote = await user.bestQuote(BTC, SOL, 500_000n);
    const amount = BigInt(quote.destination.amount);
    expect(amount).toBe(1_994_000_000n - chargedUnits(quote.fixed_fee, 9)); // 0.005 BTC = 300 USD = 2 SOL, less 30 bps and fees
    const order = await user.createOrder(quote);
    const [userSol, solverSol, solverBtc] = [
      await user.balance(SOL),
      await solverSolana(t, SOL),
      await solverBitcoin(t),
    ];
    const started = Date.now();
    await user.fundBitcoinSource(order);
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 150_000 });
    report("BTC -> SOL", started, done);
    expect(await user.balance(SOL)).toBe(userSol + amount);
    const events = htlcEventsOf(t, done.destination_swap);
    expect(events.map((e) => e.name)).toEqual(["Initiated", "Redeemed"]);
    expect(solverSol - (await solverSolana(t, SOL))).toBe(amount + events[0]!.fee);
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);
    expect(actionsOf(t, order.order_id)).toEqual([
      ["fill", "confirmed"],
      ["redeem", "confirmed"],
    ]);
    // The source redeem paid the solver's wallet the deposit less that transaction's fee.
    const redeemFee = bitcoinFeeOfAction(t, order.order_id, "redeem");
    expect((await solverBitcoin(t)) - solverBtc).toBe(500_000n - redeemFee);
  });

  it("SPL -> BTC: the user locks SPL tokens, the service redeems the Bitcoin destination", async () => {
    const user = t.user(0);
    const quote = await user.bestQuote(SPL_USDC, BTC, 120_000_000n);
    const amount = BigInt(quote.destination.amount);
    expect(amount).toBe(199_400n - chargedUnits(quote.fixed_fee, 8));
    const order = await user.createOrder(quote);
    const [userBtc, solverSpl, solverBtc] = [
      await user.balance(BTC),
      await solverSolana(t, SPL_USDC),
      await solverBitcoin(t),
    ];
    const started = Date.now();
    await user.initiateSolana(order);
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 150_000 });
    report("SPL USDC -> BTC", started, done);
    const received = (await user.balance(BTC)) - userBtc;
    // The service's Bitcoin redeem pays its fee out of the HTLC.
    expect(received).toBeGreaterThan(amount - 1_000n);
    expect(received).toBeLessThan(amount);
    expect((await solverSolana(t, SPL_USDC)) - solverSpl).toBe(120_000_000n);
    expect(htlcEventsOf(t, done.source_swap).map((e) => e.name)).toEqual(["Initiated", "Redeemed"]);
    // The solver's wallet paid the HTLC and its fill's fee; its change came back.
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);
    const fillFee = bitcoinFeeOfAction(t, order.order_id, "fill");
    expect(solverBtc - (await solverBitcoin(t))).toBe(amount + fillFee);
  });
});
