/**
 * Starknet swaps through the API as a user makes them, against the solver (in process) on the localnet:
 * Starknet WBTC to an EVM chain's (the user initiates on chain), an EVM chain's WBTC to Starknet with a
 * secret the client keeps (the user redeems; the solver takes the secret from the `Redeemed` event), a
 * Starknet source initiated by signature (relayed), BTC to Starknet (the service redeems), and a Starknet
 * fill the user never redeems, refunded after its timelock. Each checks both sides' balances exactly,
 * STRK fees taken from the chain's receipts, and prints the time from the user's initiate to the solver's
 * source redeem.
 */
import { hash } from "starknet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUserSecret } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { orderedAmount } from "../../support/quote-drift.js";
import { startTestLocalnet, type TestLocalnet } from "../../support/localnet.js";
import { actionsSettled, BTC, completed } from "./bitcoin-support.js";
import { bitcoinFeeOfAction, solverBitcoin } from "./solana-support.js";
import {
  solverStarknet,
  solverStrk,
  starknetBalance,
  starknetFee,
  starknetFeeOfAction,
  starknetHtlcEvents,
  STARKNET_WBTC,
  strkBalance,
} from "./starknet-support.js";

const ETHEREUM_WBTC = "ethereum_localnet:wbtc";
const ARBITRUM_WBTC = "arbitrum_localnet:wbtc";
const timings: string[] = [];

describe("Starknet swaps on the localnet", () => {
  let t: TestLocalnet;
  beforeAll(async () => {
    t = await startTestLocalnet();
  });
  afterAll(async () => {
    console.log(`Starknet swaps, user initiate to solver source redeem:\n${timings.join("\n")}`);
    await t?.net.stop();
  });

  const evmExecutor = (chain: string) => t.net.solver!.chains.get(chain)!.executor;
  const report = (label: string, started: number) =>
    timings.push(`  ${label.padEnd(34)} ${Date.now() - started} ms`);

  it("the service lists the Starknet chain: its chain id, schemas, HTLC and asset", async () => {
    const chain = (await t.orderbook.chains()).find((c) => c.chain === "starknet_localnet");
    const { assets } = t.net.descriptor.starknet;
    expect(chain).toMatchObject({
      id: "SN_LOCALNET",
      supported_htlc_schemas: ["starknet:htlc_erc20"],
      supported_token_schemas: ["starknet:erc20"],
      htlc: { schema: "starknet:htlc_erc20", address: assets[0]!.htlcAddress },
      source_timelock: 7200,
      destination_timelock: 600,
    });
    expect(chain!.assets.map((a) => [a.id, a.token_address, a.htlc_address])).toEqual([
      [STARKNET_WBTC, assets[0]!.tokenAddress, assets[0]!.htlcAddress],
    ]);
  });

  it("Starknet WBTC -> EVM WBTC: the user approves and initiates, the solver redeems with the service's secret", async () => {
    const user = t.user(0);
    const quote = await user.bestQuote(STARKNET_WBTC, ARBITRUM_WBTC, 1_000_000n);
    const order = await user.createOrder(quote);
    expect(order.source_swap).toMatchObject({
      initiator: user.starknet.address,
      redeemer: t.net.descriptor.solver.starknetAddress,
    });
    expect(order.source_swap.swap_id).toMatch(/^[1-9a-f][0-9a-f]{0,63}$/);
    const amount = orderedAmount(order, BigInt(quote.destination.amount));
    const before = {
      userArbitrum: await user.balance(ARBITRUM_WBTC),
      userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
      userStrk: strkBalance(t, user.starknet.address),
      solverWbtc: solverStarknet(t, STARKNET_WBTC),
      solverStrk: solverStrk(t),
      solverArbitrum: await evmExecutor("arbitrum_localnet").balance(ARBITRUM_WBTC),
    };
    const started = Date.now();
    const initiateTx = await user.initiateStarknet(order);
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
    report("Starknet WBTC -> arbitrum WBTC", started);
    expect(done.source_swap.initiate_tx_hash).toBe(initiateTx);
    expect(await user.balance(ARBITRUM_WBTC)).toBe(before.userArbitrum + amount);
    expect(starknetBalance(t, STARKNET_WBTC, user.starknet.address)).toBe(before.userWbtc - 1_000_000n);
    expect(strkBalance(t, user.starknet.address)).toBe(before.userStrk - (await starknetFee(t, initiateTx)));
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);
    expect(solverStarknet(t, STARKNET_WBTC)).toBe(before.solverWbtc + 1_000_000n);
    const redeemFee = await starknetFeeOfAction(t, order.order_id, "redeem");
    expect(redeemFee).toBe(await starknetFee(t, done.source_swap.redeem_tx_hash));
    expect(solverStrk(t)).toBe(before.solverStrk - redeemFee);
    expect(before.solverArbitrum - (await evmExecutor("arbitrum_localnet").balance(ARBITRUM_WBTC))).toBe(
      amount,
    );
    expect((await starknetHtlcEvents(t, done.source_swap)).map((e) => e.name)).toEqual([
      "Initiated",
      "Redeemed",
    ]);
  });

  it("EVM WBTC -> Starknet WBTC: the user redeems with its own secret and the solver takes it from Redeemed", async () => {
    const user = t.user(1);
    const { secret, secretHash } = newUserSecret();
    const quote = await user.bestQuote(ETHEREUM_WBTC, STARKNET_WBTC, 1_000_000n);
    const order = await user.createOrder(quote, { secretHash });
    expect(order.destination_swap).toMatchObject({
      initiator: t.net.descriptor.solver.starknetAddress,
      redeemer: user.starknet.address,
    });
    const amount = orderedAmount(order, BigInt(quote.destination.amount));
    const before = {
      userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
      userStrk: strkBalance(t, user.starknet.address),
      solverWbtc: solverStarknet(t, STARKNET_WBTC),
      solverStrk: solverStrk(t),
      solverEthereum: await evmExecutor("ethereum_localnet").balance(ETHEREUM_WBTC),
    };
    const started = Date.now();
    await user.initiateOnChain(order);
    const filled = await user.waitForOrder(
      order.order_id,
      (o) => o.destination_swap.current_confirmations >= 1,
    );
    // The service must not redeem for a client that holds its own secret.
    expect(filled.destination_swap.redeem_tx_hash).toBe("");
    const redeemTx = await user.redeemStarknetDestination(filled, secret);
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
    report("ethereum WBTC -> Starknet WBTC", started);
    expect(done.destination_swap.secret).toBe(secret.slice(2));
    expect(done.destination_swap.redeem_tx_hash).toBe(redeemTx);
    expect(starknetBalance(t, STARKNET_WBTC, user.starknet.address)).toBe(before.userWbtc + amount);
    expect(strkBalance(t, user.starknet.address)).toBe(before.userStrk - (await starknetFee(t, redeemTx)));
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);
    expect(
      t.net.solver!.journal.orderActions(order.order_id).find((a) => a.kind === "redeem")?.request.secret,
    ).toBe(secret.slice(2));
    const fillFee = await starknetFeeOfAction(t, order.order_id, "fill");
    expect(before.solverWbtc - solverStarknet(t, STARKNET_WBTC)).toBe(amount);
    expect(before.solverStrk - solverStrk(t)).toBe(fillFee);
    expect((await evmExecutor("ethereum_localnet").balance(ETHEREUM_WBTC)) - before.solverEthereum).toBe(
      1_000_000n,
    );
    const events = await starknetHtlcEvents(t, done.destination_swap);
    expect(events).toEqual([
      { name: "Initiated", txHash: done.destination_swap.initiate_tx_hash },
      { name: "Redeemed", txHash: redeemTx },
    ]);
  });

  it("a Starknet source initiated by signature: the create-order answer's typed data and call, the relayer pays", async () => {
    const user = t.user(2);
    const quote = await user.bestQuote(STARKNET_WBTC, ETHEREUM_WBTC, 500_000n);
    const created = await t.orderbook.createOrder(user.orderRequest(quote));
    const order = await t.orderbook.getOrder(created.order_id);
    const swap = order.source_swap;
    const htlc = t.net.descriptor.starknet.assets[0]!.htlcAddress;
    // As the live service's published order: the HTLC's `initiate` with the terms, and SNIP-12 `Initiate`.
    expect(created.transaction).toEqual({
      to: `0x${BigInt(htlc).toString(16)}`,
      selector: hash.getSelectorFromName("initiate"),
      calldata: [
        `0x${BigInt(swap.redeemer).toString(16)}`,
        `0x${swap.timelock.toString(16)}`,
        `0x${BigInt(swap.amount).toString(16)}`,
        "0x0",
        ...(swap.secret_hash.match(/.{8}/g) ?? []).map((word) => `0x${BigInt(`0x${word}`).toString(16)}`),
      ],
    });
    expect(created.typed_data).toMatchObject({
      domain: { name: "HTLC", version: "1", chainId: "SN_LOCALNET", revision: "1" },
      primaryType: "Initiate",
      message: { redeemer: BigInt(swap.redeemer).toString(), timelock: String(swap.timelock) },
    });
    const relayer = t.net.serviceConfig.chains.find((c) => c.family === "starknet");
    if (relayer?.family !== "starknet") throw new Error("the service has no Starknet chain");
    const before = {
      userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
      userStrk: strkBalance(t, user.starknet.address),
      relayerStrk: strkBalance(t, relayer.relayerAddress),
      solverWbtc: solverStarknet(t, STARKNET_WBTC),
      solverStrk: solverStrk(t),
      userEthereum: await user.balance(ETHEREUM_WBTC),
    };
    const started = Date.now();
    const approveTx = await user.starknet.approveSource(swap);
    // Another account's signature of these terms is refused before anything is sent.
    const forged = t.user(0).starknet.signInitiate({ ...swap, initiator: t.user(0).starknet.address });
    await expect(t.orderbook.initiate(order.order_id, forged)).rejects.toThrow(
      `signature is not accepted by the source initiator's account ${swap.initiator}`,
    );
    await expect(t.orderbook.initiate(order.order_id, "0x1234")).rejects.toThrow(
      "signature must be an array",
    );
    const relayTx = await t.orderbook.initiate(order.order_id, user.starknet.signInitiate(swap));
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
    report("Starknet WBTC (signed) -> ethereum", started);
    expect(done.source_swap.initiate_tx_hash).toBe(relayTx);
    expect(await user.balance(ETHEREUM_WBTC)).toBe(
      before.userEthereum + BigInt(done.destination_swap.amount),
    );
    expect(starknetBalance(t, STARKNET_WBTC, user.starknet.address)).toBe(before.userWbtc - 500_000n);
    // The user paid its approve; the relayer paid the initiate.
    expect(strkBalance(t, user.starknet.address)).toBe(before.userStrk - (await starknetFee(t, approveTx)));
    expect(strkBalance(t, relayer.relayerAddress)).toBe(before.relayerStrk - (await starknetFee(t, relayTx)));
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);
    expect(solverStarknet(t, STARKNET_WBTC)).toBe(before.solverWbtc + 500_000n);
    expect(solverStrk(t)).toBe(before.solverStrk - (await starknetFeeOfAction(t, order.order_id, "redeem")));
    // A second relay of the same order is refused.
    await expect(t.orderbook.initiate(order.order_id, user.starknet.signInitiate(swap))).rejects.toThrow(
      /409|already initiated/,
    );
  });

  it("BTC -> Starknet WBTC: the user pays the deposit address, the solver fills, the service redeems", async () => {
    const user = t.user(0);
    const quote = await user.bestQuote(BTC, STARKNET_WBTC, 500_000n);
    const order = await user.createOrder(quote);
    const amount = orderedAmount(order, BigInt(quote.destination.amount));
    const before = {
      userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
      userStrk: strkBalance(t, user.starknet.address),
      solverWbtc: solverStarknet(t, STARKNET_WBTC),
      solverStrk: solverStrk(t),
      solverBtc: await solverBitcoin(t),
    };
    const started = Date.now();
    await user.fundBitcoinSource(order);
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 150_000 });
    report("BTC -> Starknet WBTC", started);
    expect(starknetBalance(t, STARKNET_WBTC, user.starknet.address)).toBe(before.userWbtc + amount);
    expect(strkBalance(t, user.starknet.address)).toBe(before.userStrk);
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);
    expect(before.solverWbtc - solverStarknet(t, STARKNET_WBTC)).toBe(amount);
    expect(before.solverStrk - solverStrk(t)).toBe(await starknetFeeOfAction(t, order.order_id, "fill"));
    const redeemFee = bitcoinFeeOfAction(t, order.order_id, "redeem");
    expect((await solverBitcoin(t)) - before.solverBtc).toBe(500_000n - redeemFee);
    expect((await starknetHtlcEvents(t, done.destination_swap)).map((e) => e.name)).toEqual([
      "Initiated",
      "Redeemed",
    ]);
  });

  it("never redeemed: the solver refunds its Starknet fill once the timelock has passed", async () => {
    const user = t.user(2);
    const { secretHash } = newUserSecret();
    const quote = await user.bestQuote(ETHEREUM_WBTC, STARKNET_WBTC, 500_000n);
    const order: Order = await user.createOrder(quote, { secretHash });
    const before = {
      userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
      solverWbtc: solverStarknet(t, STARKNET_WBTC),
      solverStrk: solverStrk(t),
    };
    await user.initiateOnChain(order);
    const filled = await user.waitForOrder(
      order.order_id,
      (o) => o.destination_swap.current_confirmations >= 1,
    );
    await actionsSettled(t, order.order_id, ["fill"]);
    t.net.starknet.local.mineBlock(filled.destination_swap.timelock + 1);
    const refunded = await user.waitForOrder(
      order.order_id,
      (o) => o.destination_swap.refund_tx_hash !== "",
      {
        timeoutMs: 90_000,
      },
    );
    await actionsSettled(t, order.order_id, ["refund"]);
    expect(refunded.destination_swap.redeem_tx_hash).toBe("");
    const fees =
      (await starknetFeeOfAction(t, order.order_id, "fill")) +
      (await starknetFeeOfAction(t, order.order_id, "refund"));
    expect(solverStarknet(t, STARKNET_WBTC)).toBe(before.solverWbtc);
    expect(before.solverStrk - solverStrk(t)).toBe(fees);
    expect(starknetBalance(t, STARKNET_WBTC, user.starknet.address)).toBe(before.userWbtc);
    const events = await starknetHtlcEvents(t, refunded.destination_swap);
    expect(events.map((e) => e.name)).toEqual(["Initiated", "Refunded"]);
  });
});
