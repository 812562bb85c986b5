/**
 * The Solana family on a chain whose programs are the legacy ones (`programVersion: legacy`), over the
 * local chain's JSON-RPC: fills, redeems, refunds and instant refunds of SOL and an SPL token, what the
 * reader ties each swap to (the transaction that initiated it, since the accounts keep neither the
 * timelock nor the mint), and the swaps it refuses to take for an order's.
 */
import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNATTRIBUTED } from "../../../../src/chains/chain.js";
import { resolveSolanaAsset } from "../../../../src/chains/solana/assets.js";
import {
  FillAlreadyLandedError,
  SolanaActionError,
  SwapOccupiedError,
} from "../../../../src/chains/solana/errors.js";
import { legacyNativeRedeemInstruction } from "../../../../src/chains/solana/legacy/native-instructions.js";
import { legacySplInitiateInstruction } from "../../../../src/chains/solana/legacy/spl-instructions.js";
import { associatedTokenAddress } from "../../../../src/chains/solana/spl-token.js";
import { hexBytes, swapTermsOf } from "../../../../src/chains/solana/swap-params.js";
import {
  action,
  LAMPORTS_PER_SOL,
  locksOf,
  run,
  sendAs,
  SOL,
  startSolanaFamilyFixture,
  swapOf,
  userInitiates,
  USDC,
  type SolanaFamilyFixture,
} from "./solana-family-fixture.js";

let f: SolanaFamilyFixture;
const NATIVE_RENT = 1_726_080n; // (128 + 120 bytes)

beforeAll(async () => {
  f = await startSolanaFamilyFixture("legacy");
});

afterAll(async () => {
  await f?.stop();
});

const balance = (asset: string) => f.family.executor.balance(asset);

describe("legacy programs: the solver's fills", () => {
  it("fills SOL at [swap_account, solver, secret_hash]; the user's redeem pays the user and returns the rent", async () => {
    const swap = swapOf(f, SOL, f.solver, f.user, 2n * LAMPORTS_PER_SOL, 50n);
    const before = await balance(SOL);
    const { signed, status } = await run(f, action("fill", swap));
    expect(status.state).toBe("confirmed");
    if (signed.terms.family !== "solana") throw new Error("not Solana terms");
    expect(await balance(SOL)).toBe(before - 2n * LAMPORTS_PER_SOL - NATIVE_RENT - signed.terms.feeLamports);

    const own = { ownTxids: [signed.txHash] };
    const state = await f.family.reader.readHtlc(swap.params, own);
    expect(state.onChain).toEqual({
      initiator: f.solver.publicKey.toBase58(),
      redeemer: f.user.publicKey.toBase58(),
      timelock: 50n,
      amount: 2n * LAMPORTS_PER_SOL,
    });
    const lock = state.locks[0]!;
    expect(state.locks).toHaveLength(1);
    expect(lock).toMatchObject({ fundingTx: signed.txHash, value: 2n * LAMPORTS_PER_SOL, spend: null });
    expect(lock.refundableAtHeight).toBe(lock.height! + 51n);
    await expect(f.family.executor.build([action("fill", swap)])).rejects.toBeInstanceOf(
      FillAlreadyLandedError,
    );

    const userBefore = await f.cluster.connection.getBalance(f.user.publicKey);
    const redeem = legacyNativeRedeemInstruction({
      programId: f.family.reader.nativeProgram,
      swapAccount: f.family.reader.swapAccount(swap.params).address,
      initiator: f.solver.publicKey,
      redeemer: f.user.publicKey,
      secret: hexBytes(swap.secret, 32, "secret"),
    });
    const redeemSig = await sendAs(f, [redeem], f.user);
    const after = await f.family.reader.readHtlc(swap.params, own);
    expect(after.secret).toBe(swap.secret);
    expect(after.locks).toEqual([
      { ...lock, spend: { kind: "redeem", txid: redeemSig, height: expect.any(BigInt) } },
    ]);
    expect(BigInt(await f.cluster.connection.getBalance(f.user.publicKey))).toBeGreaterThan(
      BigInt(userBefore) + 2n * LAMPORTS_PER_SOL - 10_000n,
    );
    // The rent came back to the solver, its initiator.
    expect(await balance(SOL)).toBe(before - 2n * LAMPORTS_PER_SOL - signed.terms.feeLamports);
  });

  it("fills SPL tokens from the solver's token account, the solver sponsoring the swap data", async () => {
    const swap = swapOf(f, USDC, f.solver, f.user, 25_000_000n, 50n);
    const before = await balance(USDC);
    const { status } = await run(f, action("fill", swap));
    expect(status.state).toBe("confirmed");
    expect(await balance(USDC)).toBe(before - 25_000_000n);
    const state = await f.family.reader.readHtlc(swap.params);
    expect(state.locks.map((l) => [l.value, l.spend])).toEqual([[25_000_000n, null]]);
  });

  it("refunds its expired fills of both assets", async () => {
    for (const asset of [SOL, USDC]) {
      const amount = asset === SOL ? LAMPORTS_PER_SOL : 9_000_000n;
      const swap = swapOf(f, asset, f.solver, f.user, amount, 5n);
      const filled = await run(f, action("fill", swap));
      const locks = await locksOf(f, swap);
      await f.cluster.advance(6n);
      const before = await balance(asset);
      const { signed, status } = await run(f, action("refund", swap, { locks }));
      expect(status.state).toBe("confirmed");
      if (signed.terms.family !== "solana") throw new Error("not Solana terms");
      const back = asset === SOL ? amount + NATIVE_RENT - signed.terms.feeLamports : amount;
      expect(await balance(asset)).toBe(before + back);
      const state = await f.family.reader.readHtlc(swap.params, { ownTxids: [filled.signed.txHash] });
      expect(state.locks[0]?.spend?.kind).toBe("refund");
    }
  });

  it("does not fill while the same secret hash's fill of another order lives at the address", async () => {
    const first = swapOf(f, SOL, f.solver, f.user, LAMPORTS_PER_SOL, 50n);
    await run(f, action("fill", first));
    const second = { ...first, params: { ...first.params, amount: 2n * LAMPORTS_PER_SOL } };
    second.params.swapId = f.family.reader.computeSwapId(second.params);
    // The address commits to the solver and the secret hash only: the first order's fill is no lock of the second's.
    const state = await f.family.reader.readHtlc(second.params, { ownTxids: [] });
    expect(state.onChain?.amount).toBe(LAMPORTS_PER_SOL);
    const before = await balance(SOL);
    const fill = action("fill", second, { orderId: "another-order" });
    await expect(f.family.executor.build([fill])).rejects.toBeInstanceOf(SwapOccupiedError);
    expect(await balance(SOL)).toBe(before);
  });
});

describe("legacy programs: sources the user locked", () => {
  it("reads a SOL source with the timelock its initiation gave, and redeems it", async () => {
    const swap = swapOf(f, SOL, f.user, f.solver, 3n * LAMPORTS_PER_SOL, 500n);
    const initiated = await userInitiates(f, swap);
    const state = await f.family.reader.readHtlc(swap.params);
    expect(state.onChain).toEqual({
      initiator: f.user.publicKey.toBase58(),
      redeemer: f.solver.publicKey.toBase58(),
      timelock: 500n,
      amount: 3n * LAMPORTS_PER_SOL,
    });
    const tx = await f.cluster.connection.getTransaction(initiated, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    expect(state.locks.map((l) => [l.fundingTx, l.height])).toEqual([[UNATTRIBUTED, BigInt(tx!.slot)]]);

    const before = await balance(SOL);
    const locks = await locksOf(f, swap);
    const { signed, status } = await run(f, action("redeem", swap, { secret: swap.secret, locks }));
    expect(status.state).toBe("confirmed");
    if (signed.terms.family !== "solana") throw new Error("not Solana terms");
    expect(await balance(SOL)).toBe(before + 3n * LAMPORTS_PER_SOL - signed.terms.feeLamports);
    expect((await f.family.reader.readHtlc(swap.params)).locks).toEqual([]);
  });

  it("shows the terms a source was really locked with, and refuses to redeem it as the order's", async () => {
    // The user locks less than the order states, at the address the order names.
    const swap = swapOf(f, SOL, f.user, f.solver, 2n * LAMPORTS_PER_SOL, 500n);
    const locked = { ...swap, params: { ...swap.params, amount: LAMPORTS_PER_SOL } };
    await userInitiates(f, locked);
    const state = await f.family.reader.readHtlc(swap.params);
    expect(state.onChain?.amount).toBe(LAMPORTS_PER_SOL);
    const locks = await locksOf(f, swap);
    await expect(
      f.family.executor.build([action("redeem", swap, { secret: swap.secret, locks })]),
    ).rejects.toThrow(/holds amount 1000000000, not 2000000000/);

    // Another timelock than the order's: read back as the initiation's.
    const longer = swapOf(f, SOL, f.user, f.solver, LAMPORTS_PER_SOL, 300n);
    await userInitiates(f, { ...longer, params: { ...longer.params, timelock: 30n } });
    expect((await f.family.reader.readHtlc(longer.params)).onChain?.timelock).toBe(30n);
  });

  it("takes no lock from an SPL source whose initiation locked another mint", async () => {
    const worthless = await f.cluster.createMint(6);
    await f.cluster.mintTo(worthless, f.user.publicKey, 100_000_000n);
    const swap = swapOf(f, USDC, f.user, f.solver, 40_000_000n, 500n);
    const ix = legacySplInitiateInstruction({
      programId: f.family.reader.splProgram,
      mint: worthless.mint,
      terms: swapTermsOf(swap.params),
      initiatorTokenAccount: associatedTokenAddress(f.user.publicKey, worthless.mint),
      sponsor: f.user.publicKey,
    });
    await sendAs(f, [ix], f.user);
    const state = await f.family.reader.readHtlc(swap.params);
    expect(state.locks).toEqual([]);
    expect(state.occupied).toBe(true);
    await expect(
      f.family.executor.build([action("redeem", swap, { secret: swap.secret, locks: ["any:1"] })]),
    ).rejects.toBeInstanceOf(SolanaActionError);
  });

  it("redeems an SPL source of the order's mint, and instantly refunds a declined one", async () => {
    const swap = swapOf(f, USDC, f.user, f.solver, 40_000_000n, 500n);
    await userInitiates(f, swap);
    const before = await balance(USDC);
    const { status } = await run(
      f,
      action("redeem", swap, { secret: swap.secret, locks: await locksOf(f, swap) }),
    );
    expect(status.state).toBe("confirmed");
    expect(await balance(USDC)).toBe(before + 40_000_000n);

    const declined = swapOf(f, USDC, f.user, f.solver, 5_000_000n, 500n);
    await userInitiates(f, declined);
    const userTokens = associatedTokenAddress(f.user.publicKey, resolveSolanaAsset(f.config, USDC).mint!);
    const userBefore = (await f.cluster.connection.getTokenAccountBalance(userTokens)).value.amount;
    const refund = await run(f, action("instant_refund", declined, { locks: await locksOf(f, declined) }));
    expect(refund.status.state).toBe("confirmed");
    const userAfter = (await f.cluster.connection.getTokenAccountBalance(userTokens)).value.amount;
    expect(BigInt(userAfter) - BigInt(userBefore)).toBe(5_000_000n);
  });

  it("cannot be redeemed by another account than the stored redeemer", async () => {
    const stranger = Keypair.generate();
    const swap = swapOf(f, SOL, f.user, stranger, LAMPORTS_PER_SOL, 500n);
    await userInitiates(f, swap);
    await expect(
      f.family.executor.build([
        action("redeem", swap, { secret: swap.secret, locks: await locksOf(f, swap) }),
      ]),
    ).rejects.toThrow(/needs the swap's redeemer/);
  });
});
