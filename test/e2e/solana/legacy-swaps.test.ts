/**
 * Swaps through the API on a localnet whose Solana chain runs the legacy programs (service, solver and
 * users all speak them): SOL and SPL tokens as source and as destination, with EVM tokens on the other
 * side. Each checks what the user received and what the solver's accounts gained and spent, and the
 * legacy accounts the swaps used: closed at the end, their rent back with whoever paid it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestLocalnet, type TestLocalnet } from "../../support/localnet.js";
import { actionsSettled, completed } from "../swaps/bitcoin-support.js";
import {
  feeOf,
  SOL,
  solanaConfig,
  solanaFeeOfAction,
  solverSolana,
  SPL_USDC,
  swapAccount,
} from "../swaps/solana-support.js";
import {
  LEGACY_NATIVE_HTLC_PROGRAM_ID,
  LEGACY_SPL_HTLC_PROGRAM_ID,
} from "../../../src/chains/solana/program-ids.js";
import { legacyNativeSwapAddress } from "../../../src/chains/solana/legacy/pda.js";
import { PublicKey } from "@solana/web3.js";
import { hexBytes, swapTermsOf } from "../../../src/chains/solana/swap-params.js";
import { htlcInterfaceOf } from "../../../src/chains/solana/htlc-interface.js";
import { recordParams } from "../../../src/orderbook/record-params.js";
import { journaled } from "../../attacks/support/attack-net.js";
import { waitFor } from "../../support/localnet.js";

describe("Solana swaps on the legacy programs", () => {
  let t: TestLocalnet;
  beforeAll(async () => {
    t = await startTestLocalnet({ solanaProgramVersion: "legacy" });
  });
  afterAll(async () => {
    await t?.net.stop();
  });

  const closed = async (address: PublicKey) =>
    (await t.user(0).solana.rpc.getAccount(address, "processed")).account === null;

  it("runs the chain on the legacy program ids, for the service and the solver alike", async () => {
    expect(solanaConfig(t)).toMatchObject({
      programVersion: "legacy",
      nativeProgramId: LEGACY_NATIVE_HTLC_PROGRAM_ID.toBase58(),
      splProgramId: LEGACY_SPL_HTLC_PROGRAM_ID.toBase58(),
    });
    const chain = (await t.orderbook.chains()).find((c) => c.chain === "solana_localnet");
    expect(chain?.htlc?.address).toBe(LEGACY_SPL_HTLC_PROGRAM_ID.toBase58());
  });

  it("SOL -> ERC20: the user locks SOL at [swap_account, user, secret_hash]; the solver redeems it", async () => {
    const user = t.user(0);
    const to = "arbitrum_localnet:usdc";
    const amount = 2_000_000_000n;
    const quote = await user.bestQuote(SOL, to, amount);
    const order = await user.createOrder(quote);
    const account = swapAccount(t, order.source_swap);
    expect(
      account.equals(
        legacyNativeSwapAddress(
          LEGACY_NATIVE_HTLC_PROGRAM_ID,
          new PublicKey(user.solana.address),
          hexBytes(order.source_swap.secret_hash, 32, "secret hash"),
        ).address,
      ),
    ).toBe(true);
    const [userTokens, solverSol] = [await user.balance(to), await solverSolana(t, SOL)];
    await user.initiateSolana(order);
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
    expect(await user.balance(to)).toBe(userTokens + BigInt(quote.destination.amount));
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);
    expect((await solverSolana(t, SOL)) - solverSol).toBe(amount - feeOf(t, done.source_swap.redeem_tx_hash));
    expect(await closed(account)).toBe(true);
  });

  it("ERC20 -> SPL: the solver fills the SPL token as initiator and sponsor; the service redeems it", async () => {
    const user = t.user(1);
    const quote = await user.bestQuote("ethereum_localnet:usdc", SPL_USDC, 150_000_000n);
    const amount = BigInt(quote.destination.amount);
    const order = await user.createOrder(quote);
    expect(order.destination_swap.initiator).toBe(t.net.descriptor.solver.solanaAddress);
    const [userSpl, solverSpl, solverSol] = [
      await user.balance(SPL_USDC),
      await solverSolana(t, SPL_USDC),
      await solverSolana(t, SOL),
    ];
    await user.initiateWithSignature(order);
    await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
    expect(await user.balance(SPL_USDC)).toBe(userSpl + amount);
    expect(solverSpl - (await solverSolana(t, SPL_USDC))).toBe(amount);
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);
    // The fill's fee and the vault of the mint (its first legacy swap); the swap data's rent came back.
    const fillFee = solanaFeeOfAction(t, order.order_id, "fill");
    expect(solverSol - (await solverSolana(t, SOL))).toBe(fillFee + 2_039_280n);
    expect(await closed(swapAccount(t, order.destination_swap))).toBe(true);
  });

  it("ERC20 -> SOL: the solver fills SOL as initiator; its rent comes back when the service redeems", async () => {
    const user = t.user(2);
    const quote = await user.bestQuote("arbitrum_localnet:usdc", SOL, 150_000_000n);
    const amount = BigInt(quote.destination.amount);
    const order = await user.createOrder(quote);
    const [userSol, solverSol] = [await user.balance(SOL), await solverSolana(t, SOL)];
    await user.initiateWithSignature(order);
    await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
    expect(await user.balance(SOL)).toBe(userSol + amount);
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);
    const fillFee = solanaFeeOfAction(t, order.order_id, "fill");
    expect(solverSol - (await solverSolana(t, SOL))).toBe(amount + fillFee);
  });

  it("SPL -> ERC20: the user locks SPL tokens; the solver redeems them into its token account", async () => {
    const user = t.user(0);
    const to = "arbitrum_localnet:usdc";
    const quote = await user.bestQuote(SPL_USDC, to, 120_000_000n);
    const order = await user.createOrder(quote);
    const [userTokens, solverSpl] = [await user.balance(to), await solverSolana(t, SPL_USDC)];
    await user.initiateSolana(order);
    await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
    expect(await user.balance(to)).toBe(userTokens + BigInt(quote.destination.amount));
    expect((await solverSolana(t, SPL_USDC)) - solverSpl).toBe(120_000_000n);
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);
    expect(await closed(swapAccount(t, order.source_swap))).toBe(true);
  });

  it("a source locked with less than the order states, at the address the order names, is never filled", async () => {
    // The legacy address commits to the initiator and the secret hash only: the user's 1 SOL sits where
    // the order's 2 SOL should.
    const user = t.user(1);
    const to = "arbitrum_localnet:usdc";
    const quote = await user.bestQuote(SOL, to, 2_000_000_000n);
    const order = await user.createOrder(quote);
    const terms = { ...swapTermsOf(recordParams(order.source_swap)), swapAmount: 1_000_000_000n };
    const arbitrum = t.net.solver!.chains.get("arbitrum_localnet")!.executor;
    const [solverTokens, userTokens, solverSol] = [
      await arbitrum.balance(to),
      await user.balance(to),
      await solverSolana(t, SOL),
    ];
    await user.solana.send([
      htlcInterfaceOf("legacy").fill(user.solana.asset(SOL), terms, user.solana.keypair.publicKey),
    ]);
    // Declined, the source goes back to the user at once: the solver signs the instant refund, its fee its only cost.
    await waitFor(() => journaled(t, order).includes("instant_refund:confirmed"), "the instant refund");
    expect(journaled(t, order)).toEqual(["instant_refund:confirmed"]);
    expect(await closed(swapAccount(t, order.source_swap))).toBe(true);
    expect(await arbitrum.balance(to)).toBe(solverTokens);
    expect(await user.balance(to)).toBe(userTokens);
    const refundFee = solanaFeeOfAction(t, order.order_id, "instant_refund");
    expect(await solverSolana(t, SOL)).toBe(solverSol - refundFee);
  });
});
