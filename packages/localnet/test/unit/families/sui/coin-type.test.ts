import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { sha256 } from "../../../../src/families/sui/chain/bytes.js";
import { orderIdOf } from "../../../../src/families/sui/chain/index.js";
import { gasPaid, HOUR_MS, startSetup, statusOf, SUI, type Setup } from "./helpers.js";

let setup: Setup | undefined;
afterEach(async () => {
  await setup?.sui.stop();
  setup = undefined;
});

describe("a coin type other than SUI", () => {
  it("initiates from several coins merged and split, redeems to the redeemer, gas paid in SUI", async () => {
    const s = (setup = await startSetup());
    const usdc = s.sui.createCoinType({ module: "usdc", name: "USDC", decimals: 6 });
    expect(s.sui.decimalsOf(usdc)).toBe(6);
    for (const amount of [400_000n, 300_000n, 500_000n]) s.sui.mint(usdc, s.alice.address, amount);
    const registry = s.sui.createRegistry(usdc);
    const secret = new Uint8Array(randomBytes(32));
    const amount = 1_000_000n;
    const suiBefore = s.sui.balanceOf(SUI, s.alice.address);
    const init = await s.alice.initiate({
      registry,
      coinType: usdc,
      redeemer: s.bob.address,
      secretHash: sha256(secret),
      amount,
      timelockMs: HOUR_MS,
    });
    expect(statusOf(init)).toBe("success");
    expect(s.sui.balanceOf(usdc, s.alice.address)).toBe(200_000n);
    expect(await s.alice.coins(usdc)).toHaveLength(1);
    expect(s.sui.balanceOf(SUI, s.alice.address)).toBe(suiBefore - gasPaid(init));
    expect(init.balanceChanges).toContainEqual({
      owner: { AddressOwner: s.alice.address },
      coinType: usdc,
      amount: (-amount).toString(),
    });

    const orderId = orderIdOf({
      secretHash: sha256(secret),
      initiator: s.alice.address,
      redeemer: s.bob.address,
      timelock: HOUR_MS,
      amount,
      registry: registry.registryId,
    });
    // The SUI registry does not hold it: the type argument must match the registry's coin type.
    const wrongRegistry = await s.bob.redeem(s.registry, usdc, orderId, secret, { gasBudget: 10_000_000n });
    expect(statusOf(wrongRegistry)).toMatch(
      /^CommandArgumentError \{ arg_idx: 0, kind: TypeMismatch \} in command 0$/,
    );
    const redeem = await s.bob.redeem(registry, usdc, orderId, secret);
    expect(statusOf(redeem)).toBe("success");
    expect(s.sui.balanceOf(usdc, s.bob.address)).toBe(amount);
  });
});
