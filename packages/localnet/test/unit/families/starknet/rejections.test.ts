import { afterEach, describe, expect, it } from "vitest";
import { instantRefundTypedData, initiateTypedData } from "../../../../src/families/starknet/chain/snip12.js";
import { VALIDATE_L2_GAS } from "../../../../src/families/starknet/chain/gas.js";
import type { ResourceBounds } from "../../../../src/families/starknet/chain/invoke-txn.js";
import {
  approveCall,
  expectedOrderId,
  FIXED_BOUNDS,
  fee,
  initiateCall,
  mined,
  rpcError,
  secretPair,
  startSetup,
  type Party,
  type Setup,
} from "./helpers.js";

let setup: Setup | undefined;
afterEach(async () => {
  await setup?.sn.stop();
  setup = undefined;
});

const AMOUNT = 50_000n;
const TIMELOCK = 5n;

/** A funded order from alice to bob; returns its id and secret words. */
async function initiated(s: Setup) {
  const { alice, bob, sn, token, htlc } = s;
  sn.mint(token, alice.address, AMOUNT);
  const { words, hashWords } = secretPair();
  const receipt = await mined(sn, alice, [
    approveCall(token, htlc, AMOUNT),
    initiateCall(htlc, bob.address, TIMELOCK, AMOUNT, hashWords),
  ]);
  expect(receipt.execution_status).toBe("SUCCEEDED");
  const id = expectedOrderId(
    "deployed",
    BigInt(s.sn.chainId),
    alice.address,
    bob.address,
    TIMELOCK,
    AMOUNT,
    hashWords,
    htlc,
  );
  return { id, words, hashWords, receipt };
}

/** Sends calls that revert: the transaction is included REVERTED with the reason, nonce used, fee charged. */
async function expectReverted(
  s: Setup,
  from: Party,
  calls: Parameters<typeof mined>[2],
  reason: string,
  bounds?: ResourceBounds,
) {
  const tokenBefore = {
    htlc: s.sn.balanceOf(s.token, s.htlc),
    sender: s.sn.balanceOf(s.token, from.address),
  };
  const strkBefore = s.sn.balanceOf(s.sn.feeToken, from.address);
  const nonceBefore = await from.account.nonce();
  const prepared = await from.account.prepare(calls, {
    nonce: nonceBefore,
    resourceBounds: bounds ?? FIXED_BOUNDS,
  });
  await from.account.rpc("starknet_addInvokeTransaction", [prepared.body]);
  s.sn.mineBlock();
  const receipt = await from.account.waitFor(prepared.hash);
  expect(receipt.execution_status).toBe("REVERTED");
  expect(receipt.revert_reason).toContain(reason);
  expect(fee(receipt)).toBeGreaterThan(0n);
  expect(s.sn.balanceOf(s.sn.feeToken, from.address)).toBe(strkBefore - fee(receipt));
  expect(await from.account.nonce()).toBe(nonceBefore + 1n);
  expect(s.sn.balanceOf(s.token, s.htlc)).toBe(tokenBefore.htlc);
  expect(s.sn.balanceOf(s.token, from.address)).toBe(tokenBefore.sender);
  expect(receipt.events.map((e) => e.from_address)).toEqual([s.sn.feeToken]);
  return receipt;
}

/** Submission refused with `code`: nothing charged, nonce unchanged, nothing waiting. */
async function expectRefused(s: Setup, from: Party, body: unknown, code: number) {
  const strk = s.sn.balanceOf(s.sn.feeToken, from.address);
  const nonce = await from.account.nonce();
  const error = await rpcError(from.account.rpc("starknet_addInvokeTransaction", [body]));
  expect(error.code).toBe(code);
  s.sn.mineBlock();
  expect(s.sn.balanceOf(s.sn.feeToken, from.address)).toBe(strk);
  expect(await from.account.nonce()).toBe(nonce);
  expect(s.sn.chain.latest().transactionHashes).toEqual([]);
  return error;
}

describe("submission rejections (JSON-RPC)", () => {
  it("refuses a bad signature with 55", async () => {
    const s = (setup = await startSetup());
    const { body } = await s.alice.account.prepare([approveCall(s.token, s.htlc, 1n)]);
    const tampered = {
      ...body,
      signature: [body.signature[0], `0x${(BigInt(body.signature[1] ?? 0) + 1n).toString(16)}`],
    };
    await expectRefused(s, s.alice, tampered, 55);
    // Signed by another key for alice's address.
    const { body: bobs } = await s.bob.account.prepare([approveCall(s.token, s.htlc, 1n)]);
    await expectRefused(s, s.alice, { ...bobs, sender_address: s.alice.address }, 55);
  });

  it("refuses a version other than 3 with 61", async () => {
    const s = (setup = await startSetup());
    const { body } = await s.alice.account.prepare([approveCall(s.token, s.htlc, 1n)], {
      nonce: 0n,
      resourceBounds: FIXED_BOUNDS,
    });
    await expectRefused(s, s.alice, { ...body, version: "0x1" }, 61);
    // The query version is for fee estimation only.
    await expectRefused(s, s.alice, { ...body, version: "0x100000000000000000000000000000003" }, 61);
  });

  it("refuses a nonce below the account's and a gapped nonce with 52", async () => {
    const s = (setup = await startSetup());
    await mined(s.sn, s.alice, [approveCall(s.token, s.htlc, 1n)]);
    const low = await s.alice.account.prepare([approveCall(s.token, s.htlc, 2n)], {
      nonce: 0n,
      resourceBounds: FIXED_BOUNDS,
    });
    await expectRefused(s, s.alice, low.body, 52);
    const gapped = await s.alice.account.prepare([approveCall(s.token, s.htlc, 2n)], {
      nonce: 2n,
      resourceBounds: FIXED_BOUNDS,
    });
    await expectRefused(s, s.alice, gapped.body, 52);
    // The next after a waiting transaction is accepted; one past it is still a gap.
    const next = await s.alice.account.prepare([approveCall(s.token, s.htlc, 3n)], {
      nonce: 1n,
      resourceBounds: FIXED_BOUNDS,
    });
    await s.alice.account.rpc("starknet_addInvokeTransaction", [next.body]);
    const following = await s.alice.account.prepare([approveCall(s.token, s.htlc, 4n)], {
      nonce: 2n,
      resourceBounds: FIXED_BOUNDS,
    });
    await s.alice.account.rpc("starknet_addInvokeTransaction", [following.body]);
    const beyond = await s.alice.account.prepare([approveCall(s.token, s.htlc, 5n)], {
      nonce: 4n,
      resourceBounds: FIXED_BOUNDS,
    });
    expect((await rpcError(s.alice.account.rpc("starknet_addInvokeTransaction", [beyond.body]))).code).toBe(
      52,
    );
  });

  it("refuses bounds below validation with 53 and a balance below the maximal fee with 54", async () => {
    const s = (setup = await startSetup());
    const calls = [approveCall(s.token, s.htlc, 1n)];
    const small = await s.alice.account.prepare(calls, {
      resourceBounds: {
        l1Gas: { maxAmount: 0n, maxPricePerUnit: 10n ** 14n },
        l2Gas: { maxAmount: VALIDATE_L2_GAS - 1n, maxPricePerUnit: 10n ** 10n },
        l1DataGas: { maxAmount: 1_000n, maxPricePerUnit: 10n ** 7n },
      },
    });
    await expectRefused(s, s.alice, small.body, 53);
    const balance = s.sn.balanceOf(s.sn.feeToken, s.alice.address);
    // Σ max_amount × max_price + tip × l2 max_amount is one FRI above the balance.
    const l2Amount = 1_000_000n;
    const tip = 1n;
    const l2Price = (balance - tip * l2Amount) / l2Amount + 1n;
    const rich = await s.alice.account.prepare(calls, {
      tip,
      resourceBounds: {
        l1Gas: { maxAmount: 0n, maxPricePerUnit: 10n ** 14n },
        l2Gas: { maxAmount: l2Amount, maxPricePerUnit: l2Price },
        l1DataGas: { maxAmount: 0n, maxPricePerUnit: 0n },
      },
    });
    // An l1 data gas bound below the nonce and fee writes every transaction makes is refused with 53 too.
    await expectRefused(s, s.alice, rich.body, 53);
    const affordable = await s.alice.account.prepare(calls, {
      tip,
      resourceBounds: {
        l1Gas: { maxAmount: 0n, maxPricePerUnit: 10n ** 14n },
        l2Gas: { maxAmount: l2Amount, maxPricePerUnit: l2Price },
        l1DataGas: { maxAmount: 128n, maxPricePerUnit: 0n },
      },
    });
    await expectRefused(s, s.alice, affordable.body, 54);
  });

  it("includes a transaction whose l2 bound cannot pay its execution as REVERTED, charged the bound", async () => {
    const s = (setup = await startSetup());
    const l2Price = s.sn.chain.gasPrices.l2;
    const bound = VALIDATE_L2_GAS + 1n;
    const receipt = await expectReverted(
      s,
      s.alice,
      [approveCall(s.token, s.htlc, 7n)],
      "Insufficient max L2Gas",
      {
        l1Gas: { maxAmount: 0n, maxPricePerUnit: 10n ** 14n },
        l2Gas: { maxAmount: bound, maxPricePerUnit: l2Price },
        l1DataGas: { maxAmount: 1_000n, maxPricePerUnit: 10n ** 7n },
      },
    );
    expect(fee(receipt)).toBe(bound * l2Price + 128n * s.sn.chain.gasPrices.l1Data);
    const allowance = await s.alice.account.rpc<string[]>("starknet_call", [
      {
        contract_address: s.token,
        entry_point_selector: "0x1e888a1026b19c8c0b57c72d63ed1737106aa10034105b980ba117bd0c29fe1",
        calldata: [s.alice.address, s.htlc],
      },
      "latest",
    ]);
    expect(allowance).toEqual(["0x0", "0x0"]);
  });
});

describe("HTLC rules (reverted, fee charged, nothing moved)", () => {
  it("refuses a wrong secret and an unknown order id on redeem", async () => {
    const s = (setup = await startSetup());
    const { id, words } = await initiated(s);
    const wrong = [...words.slice(0, 7), (words[7] ?? 0n) ^ 1n];
    await expectReverted(
      s,
      s.bob,
      [{ to: s.htlc, entrypoint: "redeem", calldata: [id, 8n, ...wrong] }],
      "HTLC: incorrect secret",
    );
    await expectReverted(
      s,
      s.bob,
      [{ to: s.htlc, entrypoint: "redeem", calldata: [id + 1n, 8n, ...words] }],
      "HTLC: order not initiated",
    );
  });

  it("refuses a refund at initiated_at + timelock (not yet expired)", async () => {
    const s = (setup = await startSetup());
    const { id, receipt } = await initiated(s);
    s.sn.mineBlock(Number(TIMELOCK) - 1);
    // The refund lands in block initiated_at + timelock, which is not past it.
    const reverted = await expectReverted(
      s,
      s.alice,
      [{ to: s.htlc, entrypoint: "refund", calldata: [id] }],
      "HTLC: order not expired",
    );
    expect(BigInt(reverted.block_number)).toBe(BigInt(receipt.block_number) + TIMELOCK);
  });

  it("refuses a second redeem and a redeem after a refund", async () => {
    const s = (setup = await startSetup());
    const first = await initiated(s);
    await mined(s.sn, s.bob, [
      { to: s.htlc, entrypoint: "redeem", calldata: [first.id, 8n, ...first.words] },
    ]);
    await expectReverted(
      s,
      s.bob,
      [{ to: s.htlc, entrypoint: "redeem", calldata: [first.id, 8n, ...first.words] }],
      "HTLC: order fulfilled",
    );
    const second = await initiated(s);
    s.sn.mineBlock(Number(TIMELOCK));
    const refund = await mined(s.sn, s.alice, [{ to: s.htlc, entrypoint: "refund", calldata: [second.id] }]);
    expect(refund.execution_status).toBe("SUCCEEDED");
    await expectReverted(
      s,
      s.bob,
      [{ to: s.htlc, entrypoint: "redeem", calldata: [second.id, 8n, ...second.words] }],
      "HTLC: order fulfilled",
    );
  });

  it("refuses an instant refund signed by anyone but the redeemer", async () => {
    const s = (setup = await startSetup());
    const { id } = await initiated(s);
    const bySomeoneElse = s.alice.account.signMessage(
      instantRefundTypedData({
        layout: "deployed",
        chainId: BigInt(s.sn.chainId),
        htlc: BigInt(s.htlc),
        orderId: id,
      }),
    );
    await expectReverted(
      s,
      s.alice,
      [{ to: s.htlc, entrypoint: "instant_refund", calldata: [id, 2n, ...bySomeoneElse] }],
      "HTLC: invalid redeemer signature",
    );
  });

  it("refuses initiate_with_signature with a signature over other terms", async () => {
    const s = (setup = await startSetup());
    s.sn.mint(s.token, s.alice.address, AMOUNT);
    await mined(s.sn, s.alice, [approveCall(s.token, s.htlc, AMOUNT)]);
    const { hashWords } = secretPair();
    const signature = s.alice.account.signMessage(
      initiateTypedData({
        layout: "deployed",
        chainId: BigInt(s.sn.chainId),
        htlc: BigInt(s.htlc),
        redeemer: BigInt(s.bob.address),
        amount: AMOUNT - 1n,
        timelock: TIMELOCK,
        secretHashWords: hashWords,
      }),
    );
    await expectReverted(
      s,
      s.bob,
      [
        {
          to: s.htlc,
          entrypoint: "initiate_with_signature",
          calldata: [s.alice.address, s.bob.address, TIMELOCK, AMOUNT, 0n, ...hashWords, 2n, ...signature],
        },
      ],
      "HTLC: invalid initiator signature",
    );
    expect(s.sn.balanceOf(s.token, s.alice.address)).toBe(AMOUNT);
  });

  it("refuses a duplicate order", async () => {
    const s = (setup = await startSetup());
    const { hashWords } = await initiated(s);
    s.sn.mint(s.token, s.alice.address, AMOUNT);
    await expectReverted(
      s,
      s.alice,
      [
        approveCall(s.token, s.htlc, AMOUNT),
        initiateCall(s.htlc, s.bob.address, TIMELOCK, AMOUNT, hashWords),
      ],
      "HTLC: duplicate order",
    );
  });

  it("reverts a transfer_from beyond the allowance, undoing the approve in the same multicall", async () => {
    const s = (setup = await startSetup());
    s.sn.mint(s.token, s.alice.address, AMOUNT);
    const { hashWords } = secretPair();
    await expectReverted(
      s,
      s.alice,
      [
        approveCall(s.token, s.htlc, AMOUNT - 1n),
        initiateCall(s.htlc, s.bob.address, TIMELOCK, AMOUNT, hashWords),
      ],
      "ERC20: insufficient allowance",
    );
    const allowance = await s.alice.account.rpc<string[]>("starknet_call", [
      {
        contract_address: s.token,
        entry_point_selector: "0x1e888a1026b19c8c0b57c72d63ed1737106aa10034105b980ba117bd0c29fe1",
        calldata: [s.alice.address, s.htlc],
      },
      "latest",
    ]);
    expect(allowance).toEqual(["0x0", "0x0"]);
  });
});
