import type { PaginatedEvents } from "@mysten/sui/client";
import { afterEach, describe, expect, it } from "vitest";
import { suiRpc } from "../../../../src/families/sui/chain/index.js";
import { initiated, startSetup, statusOf, SUI, type Setup } from "./helpers.js";

let setup: Setup | undefined;
afterEach(async () => {
  await setup?.sui.stop();
  setup = undefined;
});

async function allPages(url: string, query: unknown, limit: number, descending = false) {
  const sizes: number[] = [];
  const events: PaginatedEvents["data"] = [];
  let cursor: PaginatedEvents["nextCursor"] = null;
  for (;;) {
    const page: PaginatedEvents = await suiRpc(url, "suix_queryEvents", [query, cursor, limit, descending]);
    sizes.push(page.data.length);
    events.push(...page.data);
    cursor = page.nextCursor;
    if (!page.hasNextPage) return { sizes, events, cursor };
  }
}

describe("suix_queryEvents", () => {
  it("pages with cursors (at most 50 a page), by type, module, transaction and sender, both ways, and resumes from a kept cursor", async () => {
    const s = (setup = await startSetup());
    const { swap } = await initiated(s);
    const redeem = await s.bob.redeem(s.registry, SUI, swap.orderId, swap.secret);
    expect(statusOf(redeem)).toBe("success");
    const lookalikes: string[] = [];
    for (let i = 0; i < 55; i++)
      lookalikes.push(
        await s.sui.emitEvent({
          orderId: swap.orderId,
          secretHash: swap.secretHash,
          secret: Uint8Array.of(i),
        }),
      );

    const realRedeemed = `${s.sui.packageId}::AtomicSwap::Redeemed`;
    const real = await allPages(s.sui.url, { MoveEventType: realRedeemed }, 50);
    expect(real.events.map((e) => e.id.txDigest)).toEqual([redeem.digest]);
    expect(real.events[0]!.parsedJson).toMatchObject({ secret: Array.from(swap.secret) });

    const fakeType = `${s.sui.lookalikePackageId}::AtomicSwap::Redeemed`;
    const fakes = await allPages(s.sui.url, { MoveEventType: fakeType }, 100);
    expect(fakes.sizes).toEqual([50, 5]);
    expect(fakes.events.map((e) => e.id.txDigest)).toEqual(lookalikes);
    expect(fakes.events.every((e) => e.type === fakeType && e.packageId === s.sui.lookalikePackageId)).toBe(
      true,
    );

    const backwards = await allPages(s.sui.url, { MoveEventType: fakeType }, 20, true);
    expect(backwards.sizes).toEqual([20, 20, 15]);
    expect(backwards.events.map((e) => e.id.txDigest)).toEqual([...lookalikes].reverse());

    const moduleEvents = await allPages(
      s.sui.url,
      { MoveEventModule: { package: s.sui.packageId, module: "AtomicSwap" } },
      1,
    );
    expect(moduleEvents.events.map((e) => e.type.split("::")[2])).toEqual(["Initiated", "Redeemed"]);
    const byTx = await allPages(s.sui.url, { Transaction: redeem.digest }, 50);
    expect(byTx.events.map((e) => e.type)).toEqual([realRedeemed]);
    const bySender = await allPages(s.sui.url, { Sender: s.bob.address }, 50);
    expect(bySender.events.map((e) => e.id.txDigest)).toEqual([redeem.digest]);

    // A reader that kept the last cursor sees only what came after it.
    const { swap: next } = await initiated(s);
    const later = await s.bob.redeem(s.registry, SUI, next.orderId, next.secret);
    const resumed: PaginatedEvents = await suiRpc(s.sui.url, "suix_queryEvents", [
      { MoveEventType: realRedeemed },
      real.cursor,
      50,
      false,
    ]);
    expect(resumed.data.map((e) => e.id.txDigest)).toEqual([later.digest]);
  });

  it("refuses a cursor that names no event", async () => {
    const s = (setup = await startSetup());
    const error = await suiRpc(s.sui.url, "suix_queryEvents", [
      { Sender: s.alice.address },
      { txDigest: "11111111111111111111111111111111", eventSeq: "0" },
      10,
      false,
    ]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32602 });
  });
});
