import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { fillInstruction, redeemInstruction } from "../../../../src/chains/solana/action-instructions.js";
import type { SolanaAsset } from "../../../../src/chains/solana/assets.js";
import { htlcInterfaceOf } from "../../../../src/chains/solana/htlc-interface.js";
import { attemptCost } from "../../../../src/chains/solana/outstanding.js";
import { signDraft } from "../../../../src/chains/solana/signed-tx.js";
import { createAssociatedTokenAccountIdempotentInstruction } from "../../../../src/chains/solana/spl-token.js";
import type { TransactionInstruction } from "@solana/web3.js";

const current = htlcInterfaceOf("current");
const legacy = htlcInterfaceOf("legacy");
const programs = { native: Keypair.generate().publicKey, spl: Keypair.generate().publicKey };
const rent = { nativeSwap: 2_011_440n, splSwap: 2_241_120n, tokenAccount: 2_039_280n };
const mint = Keypair.generate().publicKey;
const otherMint = Keypair.generate().publicKey;
const solver = Keypair.generate();
const user = Keypair.generate().publicKey;
const asset = (m: typeof mint | null): SolanaAsset => ({
  id: "solana:x",
  kind: m === null ? "native" : "spl",
  programId: m === null ? programs.native : programs.spl,
  mint: m,
  config: { id: "solana:x", chain: "solana", symbol: "x", decimals: 9, tokenAddress: "", htlcAddress: "" },
});
const terms = (amount: bigint) => ({
  redeemer: user,
  refundee: solver.publicKey,
  secretHash: new Uint8Array(32).fill(7),
  swapAmount: amount,
  timelock: 100n,
});

function attemptOf(instructions: TransactionInstruction[]) {
  const signed = signDraft(
    "solana",
    {
      instructions,
      blockhash: "11111111111111111111111111111111",
      lastValidBlockHeight: 150n,
      computeUnitPriceMicroLamports: 1_000n,
      computeUnitLimit: 20_000n,
    },
    solver,
  );
  if (signed.terms.family !== "solana") throw new Error("not Solana terms");
  return { raw: signed.raw, terms: signed.terms };
}

describe("what a journaled Solana transaction takes from the solver", () => {
  it("a native fill: its fee, the amount and the swap account's rent", () => {
    const attempt = attemptOf([fillInstruction(asset(null), terms(5_000_000n), solver.publicKey)]);
    expect(attempt.terms.feeLamports).toBe(5_020n);
    expect(attemptCost(attempt, null, programs, rent, current)).toBe(5_020n + 5_000_000n + rent.nativeSwap);
    expect(attemptCost(attempt, mint, programs, rent, current)).toBe(0n);
  });

  it("an SPL fill: tokens of its own mint only; lamports for the fee, the swap data and any token account", () => {
    const attempt = attemptOf([
      createAssociatedTokenAccountIdempotentInstruction(solver.publicKey, user, mint),
      fillInstruction(asset(mint), terms(7_000_000n), solver.publicKey),
    ]);
    expect(attemptCost(attempt, mint, programs, rent, current)).toBe(7_000_000n);
    expect(attemptCost(attempt, otherMint, programs, rent, current)).toBe(0n);
    expect(attemptCost(attempt, null, programs, rent, current)).toBe(
      attempt.terms.feeLamports + rent.splSwap + rent.tokenAccount,
    );
  });

  it("a redeem takes only its fee", () => {
    const swap = {
      address: Keypair.generate().publicKey,
      redeemer: solver.publicKey,
      refundee: user,
      rentSponsor: user,
    };
    const attempt = attemptOf([redeemInstruction(asset(null), swap, new Uint8Array(32))]);
    expect(attemptCost(attempt, null, programs, rent, current)).toBe(attempt.terms.feeLamports);
  });

  it("legacy fills: the amount read where each legacy initiate keeps it", () => {
    const native = attemptOf([legacy.fill(asset(null), terms(3_000_000n), solver.publicKey)]);
    const legacyRent = { ...rent, nativeSwap: 1_726_080n, splSwap: 1_955_760n };
    expect(attemptCost(native, null, programs, legacyRent, legacy)).toBe(
      native.terms.feeLamports + 3_000_000n + legacyRent.nativeSwap,
    );
    const spl = attemptOf([legacy.fill(asset(mint), terms(9_000_000n), solver.publicKey)]);
    expect(attemptCost(spl, mint, programs, legacyRent, legacy)).toBe(9_000_000n);
    expect(attemptCost(spl, null, programs, legacyRent, legacy)).toBe(
      spl.terms.feeLamports + legacyRent.splSwap,
    );
  });
});
