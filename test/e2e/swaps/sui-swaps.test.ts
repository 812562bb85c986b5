/**
 * Sui swaps through the API as a user makes them, against the solver (in process) on the localnet: SUI to
 * an EVM chain's USDC (the user sends the create-order answer's `ptb_bytes`, completed and signed), EVM
 * USDC to SUI with a secret the client keeps (the user redeems; the solver takes the secret from the
 * `Redeemed` event and redeems its source), and a Sui fill the user never redeems, refunded once the
 * chain's clock passed its timelock. Each checks both sides' balances exactly, gas taken from the
 * transactions' effects, and prints the time from the user's initiate to the solver's source redeem.
 */
import { bcs } from "@mysten/sui/bcs";
import { normalizeSuiAddress } from "@mysten/sui/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initiateKindBytes } from "../../../src/chains/sui/ptb.js";
import { newUserSecret } from "@htlc-solver/localnet/user.js";
import { orderedAmount } from "../../support/quote-drift.js";
import { startTestLocalnet, type TestLocalnet } from "../../support/localnet.js";
import { actionsSettled, completed } from "./bitcoin-support.js";
import { solverSui, SUI, suiBalance, suiGas, suiGasOfAction, suiSwapEvents } from "./sui-support.js";

const ARBITRUM_USDC = "arbitrum_localnet:usdc";
const ETHEREUM_USDC = "ethereum_localnet:usdc";
const timings: string[] = [];

describe("Sui swaps on the localnet", () => {
  let t: TestLocalnet;
  beforeAll(async () => {
    t = await startTestLocalnet();
  });
  afterAll(async () => {
    console.log(`Sui swaps, user initiate to solver source redeem:\n${timings.join("\n")}`);
    await t?.net.stop();
  });

  const evmExecutor = (chain: string) => t.net.solver!.chains.get(chain)!.executor;
  const report = (label: string, started: number) =>
    timings.push(`  ${label.padEnd(34)} ${Date.now() - started} ms`);

  it("the service lists the Sui chain: its name, registry and coin type, timelocks in ms", async () => {
    const chain = (await t.orderbook.chains()).find((c) => c.chain === "sui_localnet");
    const [asset] = t.net.descriptor.sui.assets;
    expect(chain).toMatchObject({
      id: "sui_localnet",
      htlc: { schema: "sui:htlc", address: asset!.registryId },
      source_timelock: 7_200_000,
      destination_timelock: 600_000,
    });
    expect(chain!.assets.map((a) => [a.id, a.token_address, a.htlc_address])).toEqual([
      [SUI, normalizeSuiAddress("0x2") + "::sui::SUI", asset!.registryId],
    ]);
  });

  it("SUI -> EVM USDC: the user completes and sends the answer's ptb_bytes, the solver redeems with the service's secret", async () => {
    const user = t.user(0);
    const quote = await user.bestQuote(SUI, ARBITRUM_USDC, 30_000_000_000n);
    const created = await t.orderbook.createOrder(user.orderRequest(quote));
    const order = await t.orderbook.getOrder(created.order_id);
    const swap = order.source_swap;
    expect(swap).toMatchObject({ initiator: user.sui.address, redeemer: t.net.descriptor.solver.suiAddress });
    expect(swap.swap_id).toMatch(/^[0-9a-f]{64}$/);
    // As the live service's published order: SplitCoins(GasCoin, [amount]), then initiate with the terms.
    const kind = bcs.TransactionKind.parse(Uint8Array.from(created.ptb_bytes!));
    const ptb = kind.ProgrammableTransaction!;
    const call = ptb.commands[1]!.MoveCall!;
    expect([call.package, call.module, call.function]).toEqual([
      t.net.descriptor.sui.packageId,
      "AtomicSwap",
      "initiate",
    ]);
    expect(ptb.inputs[1]!.Object!.SharedObject!.objectId).toBe(t.net.descriptor.sui.assets[0]!.registryId);
    // Byte for byte the initiate the solver's family builds for these terms (the layout of the published order).
    const [asset] = t.net.descriptor.sui.assets;
    const expected = await initiateKindBytes(
      {
        packageId: t.net.descriptor.sui.packageId,
        coinType: asset!.coinType,
        registry: {
          objectId: asset!.registryId,
          initialSharedVersion: BigInt(asset!.registryInitialSharedVersion),
        },
      },
      {
        initiator: swap.initiator,
        redeemer: swap.redeemer,
        secretHash: swap.secret_hash,
        amount: BigInt(swap.amount),
        timelock: BigInt(swap.timelock),
      },
      { kind: "gas" },
    );
    expect(created.ptb_bytes).toEqual(Array.from(expected));
    const amount = orderedAmount(order, BigInt(quote.destination.amount));
    const before = {
      userArbitrum: await user.balance(ARBITRUM_USDC),
      userSui: suiBalance(t, SUI, user.sui.address),
      solverSui: solverSui(t),
      solverArbitrum: await evmExecutor("arbitrum_localnet").balance(ARBITRUM_USDC),
    };
    const started = Date.now();
    const initiateTx = await user.sui.executeKind(created.ptb_bytes!);
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 90_000 });
    report("SUI -> arbitrum USDC", started);
    expect(done.source_swap.initiate_tx_hash).toBe(initiateTx);
    expect(await user.balance(ARBITRUM_USDC)).toBe(before.userArbitrum + amount);
    expect(suiBalance(t, SUI, user.sui.address)).toBe(
      before.userSui - 30_000_000_000n - (await suiGas(t, initiateTx)),
    );
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);
    const redeemGas = await suiGasOfAction(t, order.order_id, "redeem");
    expect(redeemGas).toBe(await suiGas(t, done.source_swap.redeem_tx_hash));
    expect(solverSui(t)).toBe(before.solverSui + 30_000_000_000n - redeemGas);
    expect(before.solverArbitrum - (await evmExecutor("arbitrum_localnet").balance(ARBITRUM_USDC))).toBe(
      amount,
    );
    expect(await suiSwapEvents(t, done.source_swap)).toEqual([
      { name: "Initiated", txDigest: initiateTx },
      { name: "Redeemed", txDigest: done.source_swap.redeem_tx_hash },
    ]);
  });

  it("EVM USDC -> SUI: the user redeems with its own secret and the solver takes it from Redeemed", async () => {
    const user = t.user(1);
    const { secret, secretHash } = newUserSecret();
    const quote = await user.bestQuote(ETHEREUM_USDC, SUI, 60_000_000n);
    const order = await user.createOrder(quote, { secretHash });
    expect(order.destination_swap).toMatchObject({
      initiator: t.net.descriptor.solver.suiAddress,
      redeemer: user.sui.address,
      timelock: 600_000,
    });
    const amount = orderedAmount(order, BigInt(quote.destination.amount));
    const before = {
      userSui: suiBalance(t, SUI, user.sui.address),
      solverSui: solverSui(t),
      solverEthereum: await evmExecutor("ethereum_localnet").balance(ETHEREUM_USDC),
    };
    const started = Date.now();
    await user.initiateOnChain(order);
    const filled = await user.waitForOrder(
      order.order_id,
      (o) => o.destination_swap.current_confirmations >= 1,
    );
    // The service must not redeem for a client that holds its own secret.
    expect(filled.destination_swap.redeem_tx_hash).toBe("");
    const redeemTx = await user.redeemSuiDestination(filled, secret);
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 90_000 });
    report("ethereum USDC -> SUI", started);
    expect(done.destination_swap.secret).toBe(secret.slice(2));
    expect(done.destination_swap.redeem_tx_hash).toBe(redeemTx);
    expect(suiBalance(t, SUI, user.sui.address)).toBe(before.userSui + amount - (await suiGas(t, redeemTx)));
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);
    expect(
      t.net.solver!.journal.orderActions(order.order_id).find((a) => a.kind === "redeem")?.request.secret,
    ).toBe(secret.slice(2));
    const fillGas = await suiGasOfAction(t, order.order_id, "fill");
    expect(before.solverSui - solverSui(t)).toBe(amount + fillGas);
    expect((await evmExecutor("ethereum_localnet").balance(ETHEREUM_USDC)) - before.solverEthereum).toBe(
      60_000_000n,
    );
    expect(await suiSwapEvents(t, done.destination_swap)).toEqual([
      { name: "Initiated", txDigest: done.destination_swap.initiate_tx_hash },
      { name: "Redeemed", txDigest: redeemTx },
    ]);
  });

  it("never redeemed: the solver refunds its Sui fill once the chain's clock passed the timelock", async () => {
    const user = t.user(2);
    const { secretHash } = newUserSecret();
    const quote = await user.bestQuote(ETHEREUM_USDC, SUI, 30_000_000n);
    const order = await user.createOrder(quote, { secretHash });
    const before = { userSui: suiBalance(t, SUI, user.sui.address), solverSui: solverSui(t) };
    await user.initiateOnChain(order);
    const filled = await user.waitForOrder(
      order.order_id,
      (o) => o.destination_swap.current_confirmations >= 1,
    );
    await actionsSettled(t, order.order_id, ["fill"]);
    t.net.sui.local.advanceClock(filled.destination_swap.timelock + 1_000);
    const refunded = await user.waitForOrder(
      order.order_id,
      (o) => o.destination_swap.refund_tx_hash !== "",
      { timeoutMs: 60_000 },
    );
    await actionsSettled(t, order.order_id, ["refund"]);
    expect(refunded.destination_swap.redeem_tx_hash).toBe("");
    const gas =
      (await suiGasOfAction(t, order.order_id, "fill")) + (await suiGasOfAction(t, order.order_id, "refund"));
    expect(before.solverSui - solverSui(t)).toBe(gas);
    expect(suiBalance(t, SUI, user.sui.address)).toBe(before.userSui);
    const events = await suiSwapEvents(t, refunded.destination_swap);
    expect(events.map((e) => e.name)).toEqual(["Initiated", "Refunded"]);
    expect(events[1]!.txDigest).toBe(refunded.destination_swap.refund_tx_hash);
  });
});
