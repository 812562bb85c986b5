import { randomBytes } from "node:crypto";
import type { SuiTransactionBlockResponse } from "@mysten/sui/client";
import { Transaction } from "@mysten/sui/transactions";
import { SUI_CLOCK_OBJECT_ID } from "@mysten/sui/utils";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalSuiAccount } from "../../../../src/families/sui/chain/index.js";
import { sha256 } from "../../../../src/families/sui/chain/bytes.js";
import {
  abortCode,
  gasPaid,
  HOUR_MS,
  initiated,
  ONE_SUI,
  startSetup,
  statusOf,
  SUI,
  type Setup,
} from "./helpers.js";

let setup: Setup | undefined;
afterEach(async () => {
  await setup?.sui.stop();
  setup = undefined;
});

/** Sent as is (no dry run), so the abort happens on chain. */
const ON_CHAIN = { gasBudget: 10_000_000n };

/** Runs `send` from `account` and checks that it aborted with `code`, charging exactly its gas. */
async function expectAbort(
  s: Setup,
  account: LocalSuiAccount,
  code: number,
  send: () => Promise<SuiTransactionBlockResponse>,
): Promise<SuiTransactionBlockResponse> {
  const watched = [s.alice, s.bob, s.carol].filter((a) => a !== account);
  const others = watched.map((a) => s.sui.balanceOf(SUI, a.address));
  const before = s.sui.balanceOf(SUI, account.address);
  const response = await send();
  expect(statusOf(response)).toMatch(
    new RegExp(
      `^MoveAbort\\(MoveLocation \\{ module: ModuleId \\{ address: ${s.sui.packageId.slice(2)}, name: Identifier\\("AtomicSwap"\\) \\}, function: \\d+, instruction: \\d+, function_name: Some\\("\\w+"\\) \\}, ${code}\\) in command \\d+$`,
    ),
  );
  expect(abortCode(response)).toBe(code);
  expect(response.events).toEqual([]);
  expect(s.sui.balanceOf(SUI, account.address)).toBe(before - gasPaid(response));
  expect(watched.map((a) => s.sui.balanceOf(SUI, a.address))).toEqual(others);
  return response;
}

describe("AtomicSwap aborts on chain (only gas is charged)", () => {
  it("redeem with a wrong secret aborts 8", async () => {
    const s = (setup = await startSetup());
    const { swap } = await initiated(s);
    await expectAbort(s, s.bob, 8, () =>
      s.bob.redeem(s.registry, SUI, swap.orderId, new Uint8Array(randomBytes(32)), ON_CHAIN),
    );
  });

  it("redeem with a secret of 33 bytes aborts 8 (its sha256 is never checked)", async () => {
    const s = (setup = await startSetup());
    const { swap } = await initiated(s);
    await expectAbort(s, s.bob, 8, () =>
      s.bob.redeem(s.registry, SUI, swap.orderId, Uint8Array.of(...swap.secret, 0), ON_CHAIN),
    );
  });

  it("redeem of an order id that names another order aborts 5, of the right order with its secret but a wrong id aborts 8", async () => {
    const s = (setup = await startSetup());
    const { swap } = await initiated(s);
    const unknown = sha256(swap.orderId);
    await expectAbort(s, s.bob, 5, () => s.bob.redeem(s.registry, SUI, unknown, swap.secret, ON_CHAIN));
    const other = await initiated(s);
    // The secret of one order on the other's id: the recomputed id differs.
    await expectAbort(s, s.bob, 8, () =>
      s.bob.redeem(s.registry, SUI, other.swap.orderId, swap.secret, ON_CHAIN),
    );
  });

  it("refund before the timelock has passed aborts 2", async () => {
    const s = (setup = await startSetup());
    const { swap } = await initiated(s, ONE_SUI, HOUR_MS);
    s.sui.advanceClock(HOUR_MS - 1_000n);
    await expectAbort(s, s.carol, 2, () => s.carol.refund(s.registry, SUI, swap.orderId, ON_CHAIN));
  });

  it("a second redeem aborts 14", async () => {
    const s = (setup = await startSetup());
    const { swap } = await initiated(s);
    expect(statusOf(await s.bob.redeem(s.registry, SUI, swap.orderId, swap.secret))).toBe("success");
    await expectAbort(s, s.bob, 14, () => s.bob.redeem(s.registry, SUI, swap.orderId, swap.secret, ON_CHAIN));
  });

  it("redeem after a refund aborts 14", async () => {
    const s = (setup = await startSetup());
    const { swap } = await initiated(s, ONE_SUI, 1_000n);
    s.sui.advanceClock(2_000n);
    expect(statusOf(await s.carol.refund(s.registry, SUI, swap.orderId))).toBe("success");
    await expectAbort(s, s.bob, 14, () => s.bob.redeem(s.registry, SUI, swap.orderId, swap.secret, ON_CHAIN));
  });

  it("instant refund by anyone but the redeemer aborts 16", async () => {
    const s = (setup = await startSetup());
    const { swap } = await initiated(s);
    await expectAbort(s, s.alice, 16, () => s.alice.instantRefund(s.registry, SUI, swap.orderId, ON_CHAIN));
    await expectAbort(s, s.carol, 16, () => s.carol.instantRefund(s.registry, SUI, swap.orderId, ON_CHAIN));
  });

  it("the same order twice aborts 7", async () => {
    const s = (setup = await startSetup());
    const { swap } = await initiated(s);
    await expectAbort(s, s.alice, 7, () =>
      s.alice.initiate({ registry: s.registry, coinType: SUI, redeemer: s.bob.address, ...swap }, ON_CHAIN),
    );
  });

  it("a coin whose value is not the amount aborts 1", async () => {
    const s = (setup = await startSetup());
    const tx = new Transaction();
    const [coin] = tx.splitCoins(tx.gas, [ONE_SUI + 1n]);
    tx.moveCall({
      target: `${s.sui.packageId}::AtomicSwap::initiate`,
      typeArguments: [SUI],
      arguments: [
        tx.sharedObjectRef({ objectId: s.registry.registryId, initialSharedVersion: "1", mutable: true }),
        tx.pure.address(s.alice.address),
        tx.pure.address(s.bob.address),
        tx.pure.vector("u8", Array.from(sha256(new Uint8Array(32)))),
        tx.pure.u64(ONE_SUI),
        tx.pure.u256(HOUR_MS),
        tx.pure.vector("u8", []),
        coin!,
        tx.sharedObjectRef({ objectId: SUI_CLOCK_OBJECT_ID, initialSharedVersion: "1", mutable: false }),
      ],
    });
    await expectAbort(s, s.alice, 1, () => s.alice.execute(tx, ON_CHAIN));
  });

  it("a timelock over 7 days aborts 9, exactly 7 days is accepted", async () => {
    const s = (setup = await startSetup());
    const params = {
      registry: s.registry,
      coinType: SUI,
      redeemer: s.bob.address,
      secretHash: sha256(new Uint8Array(randomBytes(32))),
      amount: ONE_SUI,
    };
    await expectAbort(s, s.alice, 9, () =>
      s.alice.initiate({ ...params, timelockMs: 604_800_001n }, ON_CHAIN),
    );
    expect(statusOf(await s.alice.initiate({ ...params, timelockMs: 604_800_000n }))).toBe("success");
  });

  it("a funder who is the redeemer aborts 15", async () => {
    const s = (setup = await startSetup());
    await expectAbort(s, s.bob, 15, () =>
      s.bob.initiate(
        {
          registry: s.registry,
          coinType: SUI,
          initiator: s.alice.address,
          redeemer: s.bob.address,
          secretHash: sha256(new Uint8Array(32)),
          amount: ONE_SUI,
          timelockMs: HOUR_MS,
        },
        ON_CHAIN,
      ),
    );
  });
});
