/**
 * The Solana family against the local chain (slots on demand) or a validator named by SOLANA_RPC_URL:
 * every action for SOL and an SPL token, what the reader sees after each, refused builds, balances net
 * of journaled transactions, and the compute units each transaction used.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRemoteSolana } from "../../../support/solana-rpc.js";
import { UNATTRIBUTED } from "../../../../src/chains/chain.js";
import { AlreadyOnChainError } from "../../../../src/chains/seam-errors.js";
import { nativeRedeemInstruction } from "../../../../src/chains/solana/native-instructions.js";
import { hexBytes, swapTermsOf } from "../../../../src/chains/solana/swap-params.js";
import { splInitiateInstruction } from "../../../../src/chains/solana/spl-instructions.js";
import {
  createAssociatedTokenAccountIdempotentInstruction,
  decodeTokenAccount,
} from "../../../../src/chains/solana/spl-token.js";
import { closeTokenAccount } from "../../../support/spl-close.js";
import {
  FillAlreadyLandedError,
  SolanaActionError,
  PayeeAccountMissingError,
  SolanaTxWouldFailError,
  SwapOccupiedError,
} from "../../../../src/chains/solana/errors.js";
import {
  action,
  LAMPORTS_PER_SOL,
  locksOf,
  programUnits,
  run,
  sendAs,
  SOL,
  startSolanaFamilyFixture,
  swapOf,
  userInitiates,
  USDC,
  type SolanaFamilyFixture,
  type Swap,
} from "./solana-family-fixture.js";

let f: SolanaFamilyFixture;
const units = new Map<string, bigint>();

beforeAll(async () => {
  f = await startSolanaFamilyFixture();
});

afterAll(async () => {
  const rows = [...units].map(([label, cu]) => `  ${label.padEnd(28)} ${cu} CU`);
  const where = isRemoteSolana ? (f?.cluster.url ?? "remote") : "litesvm";
  console.log(`Solana executor transactions, HTLC program units (${where})\n${rows.join("\n")}`);
  await f?.stop();
});

const balance = (asset: string) => f.family.executor.balance(asset);

describe("Solana executor: a fill", () => {
  it("initiates a native swap funded by the solver, read back as its one lock", async () => {
    const swap = swapOf(f, SOL, f.solver, f.user, 2n * LAMPORTS_PER_SOL, 50n);
    const before = await balance(SOL);
    const { signed, status } = await run(f, action("fill", swap));
    expect(status).toMatchObject({ state: "confirmed", confirmations: 1 });
    units.set("fill (native initiate)", await programUnits(f, signed.txHash));
    if (signed.terms.family !== "solana") throw new Error("not Solana terms");
    expect(status.state === "confirmed" && status.feePaid).toBe(signed.terms.feeLamports);
    const rent = 2_011_440n;
    expect(await balance(SOL)).toBe(before - 2n * LAMPORTS_PER_SOL - rent - signed.terms.feeLamports);

    const own = { ownTxids: [signed.txHash] };
    const state = await f.family.reader.readHtlc(swap.params, own);
    expect(state.onChain).toEqual({
      initiator: f.solver.publicKey.toBase58(),
      redeemer: f.user.publicKey.toBase58(),
      timelock: 50n,
      amount: 2n * LAMPORTS_PER_SOL,
    });
    expect(state.locks).toHaveLength(1);
    const lock = state.locks[0]!;
    // The solver's fill is the lock its journaled transaction made, at the slot it landed in.
    expect(lock).toMatchObject({ fundingTx: signed.txHash, value: 2n * LAMPORTS_PER_SOL, spend: null });
    expect(status.state === "confirmed" && lock.height).toBe(
      status.state === "confirmed" && status.blockHeight,
    );
    expect(lock.refundableAtHeight).toBe(lock.height! + 51n);
    // Read without the journal's transactions, the same account is a lock of no known maker.
    expect((await f.family.reader.readHtlc(swap.params)).locks[0]?.fundingTx).toBe(UNATTRIBUTED);

    // Never twice: the journaled fill landed.
    await expect(f.family.executor.build([action("fill", swap)])).rejects.toBeInstanceOf(
      FillAlreadyLandedError,
    );

    // The user redeems; following the fill forward gives the spend and the secret.
    const redeem = nativeRedeemInstruction({
      programId: f.cluster.nativeId,
      swapAccount: f.family.reader.swapAccount(swap.params).address,
      redeemer: f.user.publicKey,
      rentSponsor: f.solver.publicKey,
      secret: hexBytes(swap.secret, 32, "secret"),
    });
    const redeemSig = await sendAs(f, [redeem], f.user);
    const after = await f.family.reader.readHtlc(swap.params, own);
    expect(after.secret).toBe(swap.secret);
    expect(after.locks).toEqual([
      { ...lock, spend: { kind: "redeem", txid: redeemSig, height: expect.any(BigInt) } },
    ]);
    expect(after.occupied).toBe(false);

    // Closed, the address is empty again; the journal's landed fill still stops a second one.
    await expect(f.family.executor.build([action("fill", swap)])).rejects.toBeInstanceOf(
      FillAlreadyLandedError,
    );
  });

  it("does not take someone else's initiation of the same terms for its fill, nor fill over it", async () => {
    const swap = swapOf(f, SOL, f.solver, f.user, LAMPORTS_PER_SOL, 50n);
    // The user initiates the destination's terms with their own lamports, naming the solver as refundee.
    await userInitiates(f, swap);
    const state = await f.family.reader.readHtlc(swap.params, { ownTxids: [] });
    expect(state.occupied).toBe(true);
    expect(state.locks.map((l) => l.fundingTx)).toEqual([UNATTRIBUTED]);
    const before = await balance(SOL);
    const build = f.family.executor.build([action("fill", swap)]);
    await expect(build).rejects.toBeInstanceOf(SwapOccupiedError);
    await expect(build).rejects.not.toBeInstanceOf(AlreadyOnChainError);
    expect(await balance(SOL)).toBe(before);
  });

  it("initiates an SPL swap from the solver's token account", async () => {
    const swap = swapOf(f, USDC, f.solver, f.user, 25_000_000n, 50n);
    const before = await balance(USDC);
    const { signed, status } = await run(f, action("fill", swap));
    expect(status.state).toBe("confirmed");
    units.set("fill (SPL initiate)", await programUnits(f, signed.txHash));
    expect(await balance(USDC)).toBe(before - 25_000_000n);
    const state = await f.family.reader.readHtlc(swap.params);
    expect(state.locks.map((l) => [l.value, l.spend])).toEqual([[25_000_000n, null]]);
  });

  it("counts a signed, unsent fill against the balance until it lands or dies", async () => {
    const swap = swapOf(f, USDC, f.solver, f.user, 7_000_000n, 50n);
    const [solBefore, usdcBefore] = [await balance(SOL), await balance(USDC)];
    const signed = await f.family.executor.build([action("fill", swap)]);
    f.journal.record(signed);
    if (signed.terms.family !== "solana") throw new Error("not Solana terms");
    expect(await balance(USDC)).toBe(usdcBefore - 7_000_000n);
    // Its fee and the rent of the swap data it creates (194 bytes).
    expect(await balance(SOL)).toBe(solBefore - signed.terms.feeLamports - 2_241_120n);
    f.journal.settle(signed.txHash);
  });
});

describe("Solana executor: redeems and refunds", () => {
  it("redeems a native source the user locked for the solver", async () => {
    const swap = swapOf(f, SOL, f.user, f.solver, 3n * LAMPORTS_PER_SOL, 500n);
    await userInitiates(f, swap);
    const before = await balance(SOL);
    const locks = await locksOf(f, swap);
    const { signed, status } = await run(f, action("redeem", swap, { secret: swap.secret, locks }));
    expect(status.state).toBe("confirmed");
    units.set("redeem (native)", await programUnits(f, signed.txHash));
    if (signed.terms.family !== "solana") throw new Error("not Solana terms");
    expect(await balance(SOL)).toBe(before + 3n * LAMPORTS_PER_SOL - signed.terms.feeLamports);
    // A source is the user's lock: once the solver's redeem closed it, the address holds nothing.
    expect((await f.family.reader.readHtlc(swap.params)).locks).toEqual([]);
  });

  it("redeems an SPL source into the solver's token account", async () => {
    const swap = swapOf(f, USDC, f.user, f.solver, 40_000_000n, 500n);
    await userInitiates(f, swap);
    const before = await balance(USDC);
    const { signed, status } = await run(
      f,
      action("redeem", swap, { secret: swap.secret, locks: await locksOf(f, swap) }),
    );
    expect(status.state).toBe("confirmed");
    units.set("redeem (SPL)", await programUnits(f, signed.txHash));
    expect(await balance(USDC)).toBe(before + 40_000_000n);
  });

  it("refuses a redeem with a wrong secret or of a lock the plan did not name", async () => {
    const swap = swapOf(f, SOL, f.user, f.solver, LAMPORTS_PER_SOL, 500n);
    await userInitiates(f, swap);
    const locks = await locksOf(f, swap);
    await expect(
      f.family.executor.build([action("redeem", swap, { secret: "ab".repeat(32), locks })]),
    ).rejects.toThrow(/does not hash to its secret hash/);
    await expect(
      f.family.executor.build([action("redeem", swap, { secret: swap.secret, locks: ["elsewhere:1"] })]),
    ).rejects.toBeInstanceOf(SolanaActionError);
  });

  it("refunds its expired fill, and is refused before expiry by the program", async () => {
    // A timelock of 15 slots (6 s on a validator) leaves room for the fill to confirm before the early try.
    const fills: { asset: string; swap: Swap; locks: string[]; fill: string }[] = [];
    for (const asset of [SOL, USDC]) {
      const swap = swapOf(f, asset, f.solver, f.user, asset === SOL ? LAMPORTS_PER_SOL : 9_000_000n, 15n);
      const filled = await run(f, action("fill", swap));
      const locks = await locksOf(f, swap);
      const early = f.family.executor.build([action("refund", swap, { locks })]);
      await expect(early).rejects.toBeInstanceOf(SolanaTxWouldFailError);
      await expect(early).rejects.toThrow(/RefundBeforeExpiry/);
      fills.push({ asset, swap, locks, fill: filled.signed.txHash });
    }
    // Past both expiry slots: at once on the local chain, 16 real slots (about 6.4 s) on a validator.
    await f.cluster.advance(16n);
    for (const { asset, swap, locks, fill } of fills) {
      const before = await balance(asset);
      const { signed, status } = await run(f, action("refund", swap, { locks }));
      expect(status.state).toBe("confirmed");
      units.set(`refund (${asset === SOL ? "native" : "SPL"})`, await programUnits(f, signed.txHash));
      if (signed.terms.family !== "solana") throw new Error("not Solana terms");
      const back = asset === SOL ? LAMPORTS_PER_SOL + 2_011_440n - signed.terms.feeLamports : 9_000_000n;
      expect((await balance(asset)) - before).toBe(back);
      const state = await f.family.reader.readHtlc(swap.params, { ownTxids: [fill] });
      expect(state.locks[0]?.spend).toMatchObject({ kind: "refund", txid: signed.txHash });
    }
  });

  it("sends the instant refund of a declined source itself, paying the user back", async () => {
    for (const asset of [SOL, USDC]) {
      const amount = asset === SOL ? 2n * LAMPORTS_PER_SOL : 11_000_000n;
      const swap = swapOf(f, asset, f.user, f.solver, amount, 500n);
      await userInitiates(f, swap);
      const userBefore =
        asset === SOL
          ? await f.family.rpc.getBalance(f.user.publicKey, "processed").then((b) => b.lamports)
          : 0n;
      const { signed, status } = await run(
        f,
        action("instant_refund", swap, { locks: await locksOf(f, swap) }),
      );
      expect(status.state).toBe("confirmed");
      units.set(`instant refund (${asset === SOL ? "native" : "SPL"})`, await programUnits(f, signed.txHash));
      expect((await f.family.reader.readHtlc(swap.params)).locks).toEqual([]);
      if (asset === SOL) {
        const userAfter = (await f.family.rpc.getBalance(f.user.publicKey, "processed")).lamports;
        // The amount and the rent the user sponsored come back; the solver paid the fee.
        expect(userAfter - userBefore).toBe(amount + 2_011_440n);
      }
    }
  });
});

describe("Solana executor: an SPL instant refund to a user who closed their token account", () => {
  it("is refused rather than paid for; it goes out once the user opens the account again", async () => {
    const owner = await f.cluster.newFundedKeypair();
    const tokenAccount = await f.cluster.mintTo(f.usdc, owner.publicKey, 5_000_000n);
    const swap = swapOf(f, USDC, owner, f.solver, 5_000_000n, 500n);
    const terms = swapTermsOf(swap.params);
    await f.cluster.send(
      [
        splInitiateInstruction({
          programId: f.cluster.splId,
          mint: f.usdc.mint,
          terms,
          funder: owner.publicKey,
          funderTokenAccount: tokenAccount,
          rentSponsor: owner.publicKey,
        }),
        closeTokenAccount(tokenAccount, owner.publicKey),
      ],
      [],
      owner,
    );
    const locks = await locksOf(f, swap);
    const [before] = [await balance(SOL)];
    const refused = f.family.executor.build([action("instant_refund", swap, { locks })]);
    await expect(refused).rejects.toBeInstanceOf(PayeeAccountMissingError);
    expect(await balance(SOL)).toBe(before);

    // The user opens it again, at their own cost: the refund goes out and pays them back in full.
    await f.cluster.send(
      [createAssociatedTokenAccountIdempotentInstruction(owner.publicKey, owner.publicKey, f.usdc.mint)],
      [],
      owner,
    );
    const { signed, status } = await run(f, action("instant_refund", swap, { locks }));
    expect(status.state).toBe("confirmed");
    if (signed.terms.family !== "solana") throw new Error("not Solana terms");
    expect(before - (await balance(SOL))).toBe(signed.terms.feeLamports);
    const { account } = await f.family.rpc.getAccount(tokenAccount, "confirmed");
    expect(account === null ? null : decodeTokenAccount(account.data).amount).toBe(5_000_000n);
  });
});

// Local chain only: the blockhash must outlive 150 blocks and that height be finalized (32 more), which
// the local chain does at once and a validator only after some 190 real slots (over 75 s, plus however
// far its finalized slot trails).
describe.skipIf(isRemoteSolana)("Solana executor: a transaction whose blockhash expired", () => {
  it("is unknown while it can land, dead once the finalized height passed it; a rebuild pays more", async () => {
    const swap = swapOf(f, SOL, f.solver, f.user, LAMPORTS_PER_SOL, 400n);
    const request = action("fill", swap);
    const lost = await f.family.executor.build([request]);
    const attempt = f.journal.record(lost, { orderId: request.orderId, kind: "fill" });
    if (lost.terms.family !== "solana") throw new Error("not Solana terms");
    expect(await f.family.executor.txStatus(attempt, [request])).toEqual({ state: "unknown" });
    // 150 blocks of validity, then 32 more until that height is finalized.
    await f.cluster.advance(170n);
    expect((await f.family.executor.txStatus(attempt, [request])).state).toBe("unknown");
    await f.cluster.advance(20n);
    const dead = await f.family.executor.txStatus(attempt, [request]);
    expect(dead.state).toBe("dead");
    expect(dead.state === "dead" && dead.reason).toMatch(/expired at block height/);
    // Sending it now is refused; it never lands.
    await expect(f.family.executor.broadcast(lost)).rejects.toThrow(/Blockhash not found|blockhash/i);
    f.journal.settle(lost.txHash);

    const { signed, status } = await run(f, request);
    expect(status.state).toBe("confirmed");
    if (signed.terms.family !== "solana") throw new Error("not Solana terms");
    expect(signed.terms.computeUnitPriceMicroLamports).toBeGreaterThan(
      lost.terms.computeUnitPriceMicroLamports,
    );
    const [lostStatus] = (
      await f.cluster.connection.getSignatureStatuses([lost.txHash], { searchTransactionHistory: true })
    ).value;
    expect(lostStatus).toBeNull();
    const state = await f.family.reader.readHtlc(swap.params);
    expect(state.locks).toHaveLength(1);
  });
});
