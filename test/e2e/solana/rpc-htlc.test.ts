/**
 * The HTLC programs through the Solana JSON-RPC with @solana/web3.js, as the solver will use them: on the
 * project's local chain, or on a real solana-test-validator given by SOLANA_RPC_URL.
 */
import { Connection, Keypair, SendTransactionError } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decodeHtlcEvents,
  decodeNativeSwapAccount,
  nativeInitiateInstruction,
  nativeRedeemInstruction,
  nativeRefundInstruction,
  nativeSwapAddress,
  splInitiateInstruction,
  splRedeemInstruction,
  splSwapAddress,
  splVaultAddress,
} from "../../../src/chains/solana/index.js";
import { base58Encode } from "@htlc-solver/localnet/families/solana/chain/base58.js";
import { startLocalSolana } from "@htlc-solver/localnet/families/solana/chain/index.js";
import { SolanaTestCluster, isRemoteSolana } from "../../support/solana-rpc.js";
import { newTerms } from "../../support/solana-svm.js";

let cluster: SolanaTestCluster;
const units: string[] = [];

beforeAll(async () => {
  cluster = await SolanaTestCluster.start();
});

afterAll(async () => {
  console.log(`HTLC compute units through RPC (meta.computeUnitsConsumed)\n${units.join("\n")}`);
  await cluster?.stop();
});

async function parties() {
  const [funder, sponsor, redeemer, refundee] = await Promise.all(
    [0, 1, 2, 3].map(() => cluster.newFundedKeypair(2_000_000_000n)),
  );
  return { funder: funder!, sponsor: sponsor!, redeemer: redeemer!, refundee: refundee! };
}

async function recordUnits(label: string, signature: string): Promise<void> {
  const tx = await cluster.connection.getTransaction(signature, {
    commitment: "confirmed",
    maxSupportedTransactionVersion: 0,
  });
  units.push(`  ${label.padEnd(20)} ${tx?.meta?.computeUnitsConsumed ?? "?"} CU`);
}

describe("native HTLC over RPC", () => {
  it("initiates and redeems; getTransaction, getAccountInfo and getSignaturesForAddress show it", async () => {
    const p = await parties();
    const terms = newTerms({
      redeemer: p.redeemer.publicKey,
      refundee: p.refundee.publicKey,
      swapAmount: 400_000_000n,
    });
    const swap = nativeSwapAddress(cluster.nativeId, terms).address;
    const initiate = nativeInitiateInstruction({
      programId: cluster.nativeId,
      terms,
      funder: p.funder.publicKey,
      rentSponsor: p.sponsor.publicKey,
    });
    const payerBefore = BigInt(await cluster.connection.getBalance(cluster.payer.publicKey));
    const initiated = await cluster.send([initiate], [p.funder, p.sponsor]);
    await recordUnits("native initiate", initiated);

    const tx = await cluster.connection.getTransaction(initiated, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    expect(tx?.meta?.err).toBeNull();
    expect(BigInt(tx?.meta?.fee ?? 0)).toBe(15_000n); // three signatures
    expect(BigInt(await cluster.connection.getBalance(cluster.payer.publicKey))).toBe(payerBefore - 15_000n);
    const keys = tx?.transaction.message.staticAccountKeys ?? [];
    const funderIndex = keys.findIndex((k) => k.equals(p.funder.publicKey));
    expect(
      BigInt((tx?.meta?.preBalances[funderIndex] ?? 0) - (tx?.meta?.postBalances[funderIndex] ?? 0)),
    ).toBe(400_000_000n);
    const events = decodeHtlcEvents("native", cluster.nativeId, tx?.meta?.logMessages ?? []);
    expect(events.map((e) => e.name)).toEqual(["Initiated"]);

    const account = await cluster.connection.getAccountInfo(swap, "confirmed");
    expect(account?.owner.equals(cluster.nativeId)).toBe(true);
    expect(decodeNativeSwapAccount(account?.data ?? new Uint8Array()).swapAmount).toBe(400_000_000n);

    const redeemed = await cluster.send([
      nativeRedeemInstruction({
        programId: cluster.nativeId,
        swapAccount: swap,
        redeemer: p.redeemer.publicKey,
        rentSponsor: p.sponsor.publicKey,
        secret: terms.secret,
      }),
    ]);
    await recordUnits("native redeem", redeemed);
    expect(await cluster.connection.getAccountInfo(swap, "confirmed")).toBeNull();
    expect(BigInt(await cluster.connection.getBalance(p.redeemer.publicKey, "confirmed"))).toBe(
      2_400_000_000n,
    );
    const history = await cluster.connection.getSignaturesForAddress(swap, {}, "confirmed");
    expect(history.map((h) => h.signature)).toEqual([redeemed, initiated]);
  });

  it("refuses a wrong secret in preflight with the program's error and logs", async () => {
    const p = await parties();
    const terms = newTerms({ redeemer: p.redeemer.publicKey, refundee: p.refundee.publicKey });
    await cluster.send(
      [
        nativeInitiateInstruction({
          programId: cluster.nativeId,
          terms,
          funder: p.funder.publicKey,
          rentSponsor: p.sponsor.publicKey,
        }),
      ],
      [p.funder, p.sponsor],
    );
    const swap = nativeSwapAddress(cluster.nativeId, terms).address;
    const wrong = await cluster.transaction([
      nativeRedeemInstruction({
        programId: cluster.nativeId,
        swapAccount: swap,
        redeemer: p.redeemer.publicKey,
        rentSponsor: p.sponsor.publicKey,
        secret: new Uint8Array(32).fill(9),
      }),
    ]);
    const error = await cluster.connection.sendRawTransaction(wrong.serialize()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SendTransactionError);
    const sendError = error as SendTransactionError;
    expect(sendError.message).toContain("custom program error: 0x1772");
    expect((await sendError.getLogs(cluster.connection)).join("\n")).toContain("Error Number: 6002");
    // Base58, as a real node requires: it refuses a malformed signature instead of answering null.
    const wrongSignature = base58Encode(wrong.signatures[0] ?? new Uint8Array());
    expect((await cluster.connection.getSignatureStatuses([wrongSignature])).value[0]).toBeNull();
  });

  it("lands a failing transaction sent without preflight, with its error and fee", async () => {
    const p = await parties();
    const terms = newTerms({ redeemer: p.redeemer.publicKey, refundee: p.refundee.publicKey });
    await cluster.send(
      [
        nativeInitiateInstruction({
          programId: cluster.nativeId,
          terms,
          funder: p.funder.publicKey,
          rentSponsor: p.sponsor.publicKey,
        }),
      ],
      [p.funder, p.sponsor],
    );
    const swap = nativeSwapAddress(cluster.nativeId, terms).address;
    const early = await cluster.transaction([
      nativeRefundInstruction({
        programId: cluster.nativeId,
        swapAccount: swap,
        refundee: p.refundee.publicKey,
        rentSponsor: p.sponsor.publicKey,
      }),
    ]);
    const signature = await cluster.connection.sendRawTransaction(early.serialize(), { skipPreflight: true });
    await cluster.confirm(signature);
    const [status] = (await cluster.connection.getSignatureStatuses([signature])).value;
    expect(status?.err).toEqual({ InstructionError: [0, { Custom: 6004 }] });
    const tx = await cluster.connection.getTransaction(signature, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    expect(tx?.meta?.fee).toBe(5000);
    expect(tx?.meta?.logMessages?.join("\n")).toContain("RefundBeforeExpiry");
  });

  it("refunds after the timelock once slots have passed", async () => {
    const p = await parties();
    const terms = newTerms({ redeemer: p.redeemer.publicKey, refundee: p.refundee.publicKey, timelock: 5n });
    await cluster.send(
      [
        nativeInitiateInstruction({
          programId: cluster.nativeId,
          terms,
          funder: p.funder.publicKey,
          rentSponsor: p.sponsor.publicKey,
        }),
      ],
      [p.funder, p.sponsor],
    );
    const swap = nativeSwapAddress(cluster.nativeId, terms).address;
    const expiry = decodeNativeSwapAccount(
      (await cluster.connection.getAccountInfo(swap, "confirmed"))?.data ?? new Uint8Array(),
    ).expirySlot;
    const now = BigInt(await cluster.connection.getSlot("processed"));
    if (now <= expiry) await cluster.advance(expiry - now + 1n);
    const refunded = await cluster.send([
      nativeRefundInstruction({
        programId: cluster.nativeId,
        swapAccount: swap,
        refundee: p.refundee.publicKey,
        rentSponsor: p.sponsor.publicKey,
      }),
    ]);
    await recordUnits("native refund", refunded);
    expect(BigInt(await cluster.connection.getBalance(p.refundee.publicKey, "confirmed"))).toBe(
      2_000_000_000n + terms.swapAmount,
    );
  });
});

describe("SPL HTLC over RPC", () => {
  it("initiates and redeems tokens; token balances show in meta and token RPCs", async () => {
    const p = await parties();
    const mint = await cluster.createMint(6);
    const funderTokens = await cluster.mintTo(mint, p.funder.publicKey, 5_000_000n);
    const redeemerTokens = await cluster.mintTo(mint, p.redeemer.publicKey, 0n);
    const terms = newTerms({
      redeemer: p.redeemer.publicKey,
      refundee: p.refundee.publicKey,
      swapAmount: 1_250_000n,
    });
    const initiated = await cluster.send(
      [
        splInitiateInstruction({
          programId: cluster.splId,
          mint: mint.mint,
          terms,
          funder: p.funder.publicKey,
          funderTokenAccount: funderTokens,
          rentSponsor: p.sponsor.publicKey,
        }),
      ],
      [p.funder, p.sponsor],
    );
    await recordUnits("spl initiate (+vault)", initiated);
    const vault = splVaultAddress(cluster.splId, mint.mint).address;
    expect((await cluster.connection.getTokenAccountBalance(vault, "confirmed")).value).toMatchObject({
      amount: "1250000",
      decimals: 6,
      uiAmountString: "1.25",
    });
    const tx = await cluster.connection.getTransaction(initiated, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    const post = tx?.meta?.postTokenBalances?.find((b) => b.owner === p.funder.publicKey.toBase58());
    expect(post?.uiTokenAmount.amount).toBe("3750000");
    expect(
      tx?.meta?.preTokenBalances?.find((b) => b.owner === p.funder.publicKey.toBase58())?.uiTokenAmount
        .amount,
    ).toBe("5000000");
    expect(
      decodeHtlcEvents("spl", cluster.splId, tx?.meta?.logMessages ?? [])[0]?.mint?.equals(mint.mint),
    ).toBe(true);

    const redeemed = await cluster.send([
      splRedeemInstruction({
        programId: cluster.splId,
        mint: mint.mint,
        swapData: splSwapAddress(cluster.splId, mint.mint, terms).address,
        payeeTokenAccount: redeemerTokens,
        rentSponsor: p.sponsor.publicKey,
        secret: terms.secret,
      }),
    ]);
    await recordUnits("spl redeem", redeemed);
    const owned = await cluster.connection.getTokenAccountsByOwner(
      p.redeemer.publicKey,
      { mint: mint.mint },
      "confirmed",
    );
    expect(owned.value.map((a) => a.pubkey.toBase58())).toEqual([redeemerTokens.toBase58()]);
    expect((await cluster.connection.getTokenAccountBalance(redeemerTokens, "confirmed")).value.amount).toBe(
      "1250000",
    );
  });
});

describe("cluster methods", () => {
  it("answers version, health, genesis hash, rent and fee questions", async () => {
    const c = cluster.connection;
    expect(typeof (await c.getVersion())["solana-core"]).toBe("string");
    expect(await c.getGenesisHash()).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(await c.getMinimumBalanceForRentExemption(161)).toBe(2_011_440);
    const tx = await cluster.transaction([
      nativeRefundInstruction({
        programId: cluster.nativeId,
        swapAccount: Keypair.generate().publicKey,
        refundee: cluster.payer.publicKey,
        rentSponsor: cluster.payer.publicKey,
      }),
    ]);
    expect((await c.getFeeForMessage(tx.message, "confirmed")).value).toBe(5000);
    const fees = await c.getRecentPrioritizationFees();
    expect(fees.length).toBeGreaterThan(0);
    expect(fees.every((f) => f.prioritizationFee >= 0)).toBe(true);
    const simulated = await c.simulateTransaction(tx, { sigVerify: false });
    expect(simulated.value.err).toEqual({ InstructionError: [0, { Custom: 3012 }] });
    expect(simulated.value.logs?.join("\n")).toContain("AccountNotInitialized");
    expect(simulated.value.unitsConsumed).toBeGreaterThan(0);
  });

  it("orders slots by commitment and reports getMultipleAccounts", async () => {
    const c = cluster.connection;
    const processed = await c.getSlot("processed");
    const confirmed = await c.getSlot("confirmed");
    const finalized = await c.getSlot("finalized");
    expect(processed).toBeGreaterThanOrEqual(confirmed);
    expect(confirmed).toBeGreaterThanOrEqual(finalized);
    expect(await c.getBlockHeight("processed")).toBeGreaterThanOrEqual(await c.getBlockHeight("finalized"));
    const missing = Keypair.generate().publicKey;
    const infos = await c.getMultipleAccountsInfo([cluster.payer.publicKey, missing], "confirmed");
    expect(infos[0]?.lamports).toBeGreaterThan(0);
    expect(infos[1]).toBeNull();
  });

  it("refuses a signature that is not base58 of 64 bytes, as a node's parser does", async () => {
    const c = cluster.connection;
    await expect(c.getSignatureStatuses(["ab".repeat(64)])).rejects.toThrow(/Invalid param: WrongSize/);
    await expect(c.getSignatureStatuses(["0OIl".repeat(10)])).rejects.toThrow(/Invalid param: Invalid/);
    await expect(c.getTransaction("1".repeat(40), { maxSupportedTransactionVersion: 0 })).rejects.toThrow(
      /Invalid param: WrongSize/,
    );
  });
});

describe.skipIf(isRemoteSolana)("local chain only: slots on demand", () => {
  it("advances slots on its interval, like anvil's blocks", async () => {
    const timed = await startLocalSolana({ slotMs: 50 });
    try {
      const connection = new Connection(timed.url, "processed");
      const start = await connection.getSlot();
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await connection.getSlot()).toBeGreaterThanOrEqual(start + 3);
      const { blockhash } = await connection.getLatestBlockhash();
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect((await connection.getLatestBlockhash()).blockhash).not.toBe(blockhash);
    } finally {
      await timed.stop();
    }
  });

  it("holds its interval's slots when told, while slots advanced on demand still move it", async () => {
    const timed = await startLocalSolana({ slotMs: 50 });
    try {
      const connection = new Connection(timed.url, "processed");
      timed.holdSlots(true);
      const held = await connection.getSlot();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await connection.getSlot()).toBe(held);
      timed.advanceSlots(2n);
      expect(await connection.getSlot()).toBe(held + 2);
      timed.holdSlots(false);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await connection.getSlot()).toBeGreaterThanOrEqual(held + 4);
    } finally {
      await timed.stop();
    }
  });

  it("expires a blockhash after 150 blocks", async () => {
    const c = cluster.connection;
    const { blockhash, lastValidBlockHeight } = await c.getLatestBlockhash("processed");
    expect(BigInt(lastValidBlockHeight)).toBe(BigInt(await c.getBlockHeight("processed")) + 150n);
    expect((await c.isBlockhashValid(blockhash)).value).toBe(true);
    const tx = await cluster.transaction([]);
    tx.message.recentBlockhash = blockhash;
    tx.sign([cluster.payer]);
    cluster.local?.advanceSlots(150n);
    expect((await c.isBlockhashValid(blockhash)).value).toBe(true);
    cluster.local?.advanceSlots(1n);
    expect((await c.isBlockhashValid(blockhash)).value).toBe(false);
    const error = await c.sendRawTransaction(tx.serialize()).catch((e: unknown) => e);
    expect(String(error)).toContain("Blockhash not found");
  });

  it("moves a transaction from processed to confirmed to finalized", async () => {
    const tx = await cluster.transaction([]);
    const signature = await cluster.connection.sendRawTransaction(tx.serialize());
    const status = async () => (await cluster.connection.getSignatureStatuses([signature])).value[0];
    expect((await status())?.confirmationStatus).toBe("processed");
    expect(
      await cluster.connection.getTransaction(signature, {
        commitment: "confirmed",
        maxSupportedTransactionVersion: 0,
      }),
    ).toBeNull();
    cluster.local?.advanceSlots(1n);
    expect((await status())?.confirmationStatus).toBe("confirmed");
    expect((await status())?.confirmations).toBe(1);
    cluster.local?.advanceSlots(31n);
    expect((await status())?.confirmationStatus).toBe("finalized");
    expect((await status())?.confirmations).toBeNull();
  });

  it("speaks raw JSON-RPC: base58 transactions, batches, unknown methods", async () => {
    const post = async (body: unknown) =>
      (
        await fetch(cluster.url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).json() as Promise<unknown>;
    const tx = await cluster.transaction([]);
    const sent = (await post({
      jsonrpc: "2.0",
      id: 1,
      method: "sendTransaction",
      params: [base58Encode(tx.serialize())],
    })) as { result: string };
    expect(sent.result).toBe(base58Encode(tx.signatures[0] ?? new Uint8Array()));
    const batch = (await post([
      { jsonrpc: "2.0", id: 1, method: "getHealth" },
      { jsonrpc: "2.0", id: 2, method: "noSuchMethod" },
    ])) as { id: number; result?: unknown; error?: { code: number } }[];
    expect(batch[0]?.result).toBe("ok");
    expect(batch[1]?.error?.code).toBe(-32601);
    const again = (await post({
      jsonrpc: "2.0",
      id: 3,
      method: "sendTransaction",
      params: [base58Encode(tx.serialize())],
    })) as { error: { code: number; message: string } };
    expect(again.error.code).toBe(-32002);
    expect(again.error.message).toContain("already been processed");
  });
});
