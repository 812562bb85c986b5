/**
 * The service goes down after the solver filled two orders and stays down for longer than the
 * destination timelock. From its journal and the chains alone, the solver redeems the source whose
 * secret appears on the destination chain, and refunds the fill nobody redeemed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUserSecret } from "@htlc-solver/localnet/user.js";
import { mineBlocks, waitFor } from "../../support/localnet.js";
import {
  journaled,
  solverHolds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../../attacks/support/attack-net.js";

const FROM = "arbitrum_localnet:usdc";
const TO = "ethereum_localnet:usdc";

describe("a service that is down for longer than the destination timelock", () => {
  let t: AttackNet;
  beforeAll(async () => {
    t = await startAttackNet();
  });
  afterAll(async () => {
    await stopAttackNet(t);
  });

  it("costs the solver nothing: it redeems and refunds from its journal and the chains", async () => {
    const user = t.user(0);
    const redeemed = newUserSecret();
    const abandoned = newUserSecret();
    const quote = await user.bestQuote(FROM, TO, 100_000_000n);
    const [a, b] = [
      await user.createOrder(quote, { secretHash: redeemed.secretHash }),
      await user.createOrder(await user.bestQuote(FROM, TO, 100_000_000n), {
        secretHash: abandoned.secretHash,
      }),
    ];
    const solverFrom = await solverHolds(t, FROM);
    const solverTo = await solverHolds(t, TO);
    await user.initiateOnChain(a!);
    await user.initiateOnChain(b!);
    await waitFor(
      () => [a!, b!].every((o) => journaled(t, o).includes("fill:confirmed")),
      "both fills to be final",
    );

    t.proxy.down = true;
    await user.redeemDestination(a!, redeemed.secret);
    await mineBlocks(t.net.anvils.get("ethereum_localnet")!.rpcUrl, b!.destination_swap.timelock + 1);
    await waitFor(
      () => journaled(t, a!).includes("redeem:confirmed"),
      "the source redeem, service down",
      90_000,
    );
    await waitFor(
      () => journaled(t, b!).includes("refund:confirmed"),
      "the destination refund, service down",
      90_000,
    );
    expect(
      t.log.find((l) => l.msg === "could not list orders; following the journal's orders"),
    ).toBeDefined();

    // One order swapped, the other undone: the solver gained a's source and gave a's destination.
    expect(await solverHolds(t, FROM)).toBe(solverFrom + BigInt(a!.source_swap.amount));
    expect(await solverHolds(t, TO)).toBe(solverTo - BigInt(a!.destination_swap.amount));
    t.proxy.down = false;
  });
});
