import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { HtlcParams } from "../../../../src/chains/chain.js";
import { RpcUnavailableError } from "../../../../src/chains/rpc/errors.js";
import { RpcShapeError } from "../../../../src/chains/rpc/rpc-shape-error.js";
import { bytesToWords, feltHex } from "../../../../src/chains/starknet/felt.js";
import { EVENT_KEYS, SELECTORS } from "../../../../src/chains/starknet/htlc-calls.js";
import { computeStarknetSwapId } from "../../../../src/chains/starknet/order-id.js";
import { FakeStarknetNode, familyOn, HTLC, nodeError, SOLVER, USER } from "./fake-node.js";

const SECRET = Buffer.alloc(32, 7);
const SECRET_HASH = createHash("sha256").update(SECRET).digest("hex");
const INITIATED_AT = 900n;
const TIMELOCK = 50n;

function params(overrides: Partial<HtlcParams> = {}): HtlcParams {
  const base = {
    chain: "starknet_test",
    asset: "starknet_test:wbtc",
    initiator: USER,
    redeemer: SOLVER,
    secretHash: SECRET_HASH,
    timelock: TIMELOCK,
    amount: 50_000n,
    ...overrides,
  };
  const swapId = computeStarknetSwapId({ layout: "deployed", chainId: "SN_SEPOLIA", htlc: HTLC, ...base });
  return { swapId, ...base, ...overrides };
}

/** get_order's felts for the order of `params`. */
function storedOrder(p: HtlcParams, fulfilled = false): string[] {
  return [
    fulfilled ? 1n : 0n,
    BigInt(p.initiator),
    BigInt(p.redeemer),
    INITIATED_AT,
    p.timelock,
    p.amount,
    0n,
  ].map(feltHex);
}

function redeemedEvent(p: HtlcParams, secret: Buffer, block = 950) {
  const words = bytesToWords(secret);
  return {
    from_address: HTLC,
    keys: [feltHex(EVENT_KEYS.redeemed), `0x${p.swapId}`],
    data: [...bytesToWords(Buffer.from(SECRET_HASH, "hex")), BigInt(words.length), ...words].map(feltHex),
    block_number: block,
    block_hash: "0x5",
    transaction_hash: "0xbeef",
  };
}

function withOrder(node: FakeStarknetNode, felts: string[]): FakeStarknetNode {
  return node.on("starknet_call", (request) => {
    const [call] = request as [{ entry_point_selector: string }];
    if (call.entry_point_selector !== SELECTORS.getOrder) throw nodeError(40, "unexpected call");
    return felts;
  });
}

describe("the Starknet reader", () => {
  it("reports no lock for an id the HTLC never saw (seven zeros)", async () => {
    const node = withOrder(new FakeStarknetNode(), Array(7).fill("0x0"));
    const { reader } = familyOn(node);
    const state = await reader.readHtlc(params());
    expect(state).toEqual({ locks: [], onChain: null, secret: null });
  });

  it("reports the stored order as one lock, refundable the block after initiated_at + timelock", async () => {
    const p = params();
    const node = withOrder(new FakeStarknetNode(), storedOrder(p));
    const { reader } = familyOn(node);
    const state = await reader.readHtlc(p);
    expect(state.locks).toEqual([
      {
        id: p.swapId,
        fundingTx: null,
        value: 50_000n,
        height: INITIATED_AT,
        refundableAtHeight: INITIATED_AT + TIMELOCK + 1n,
        worthSpending: true,
        spend: null,
      },
    ]);
    expect(state.onChain).toEqual({ initiator: USER, redeemer: SOLVER, timelock: TIMELOCK, amount: 50_000n });
    expect(state.occupied).toBe(true);
    const [call] = node.paramsOf("starknet_call")[0] as [{ calldata: string[] }];
    expect(call.calldata).toEqual([`0x${p.swapId}`]);
  });

  it("finds the secret of a redeem past an empty page, by continuation token, checked against the hash", async () => {
    const p = params();
    const node = withOrder(new FakeStarknetNode(), storedOrder(p, true)).on(
      "starknet_getEvents",
      (request) => {
        const { filter } = request as { filter: { continuation_token?: string; keys: string[][] } };
        expect(filter.keys).toEqual([
          [feltHex(EVENT_KEYS.redeemed), feltHex(EVENT_KEYS.refunded)],
          [`0x${p.swapId}`],
        ]);
        if (filter.continuation_token === undefined) return { events: [], continuation_token: "page-2" };
        return { events: [redeemedEvent(p, SECRET)] };
      },
    );
    const { reader } = familyOn(node);
    const state = await reader.readHtlc(p);
    expect(state.secret).toBe(SECRET.toString("hex"));
    expect(state.locks[0]?.spend).toEqual({ kind: "redeem", txid: "0xbeef", height: 950n });
  });

  it("takes no secret from a redeem event whose words do not hash to the order's secret hash", async () => {
    const p = params();
    const node = withOrder(new FakeStarknetNode(), storedOrder(p, true)).on("starknet_getEvents", () => ({
      events: [redeemedEvent(p, Buffer.alloc(32, 8))],
    }));
    const state = await familyOn(node).reader.readHtlc(p);
    expect(state.secret).toBeNull();
    expect(state.locks[0]?.spend?.kind).toBe("redeem");
  });

  it.each([
    ["before expiry, an instant refund", 940, "instant_refund"],
    ["after expiry, a refund", 951, "refund"],
  ])("reads a Refunded event %s", async (_name, block, kind) => {
    const p = params();
    const refunded = {
      from_address: HTLC,
      keys: [feltHex(EVENT_KEYS.refunded), `0x${p.swapId}`],
      data: [],
      block_number: block,
      transaction_hash: "0xfeed",
    };
    const node = withOrder(new FakeStarknetNode(), storedOrder(p, true)).on("starknet_getEvents", () => ({
      events: [refunded],
    }));
    const state = await familyOn(node).reader.readHtlc(p);
    expect(state.locks[0]?.spend).toEqual({ kind, txid: "0xfeed", height: BigInt(block) });
    expect(state.secret).toBeNull();
  });

  it("stops a search after its pages and resumes it from the kept token, not from the start", async () => {
    const p = params();
    let page = 0;
    const node = withOrder(new FakeStarknetNode(), storedOrder(p, true)).on("starknet_getEvents", () => {
      page += 1;
      return { events: [], continuation_token: `t${page}` };
    });
    const { reader, positions } = familyOn(node, { pagesPerRead: 3 });
    const first = await reader.readHtlc(p);
    expect(first.locks[0]?.spend).toEqual({ kind: "unknown", txid: null, height: null });
    expect(node.paramsOf("starknet_getEvents")).toHaveLength(3);
    expect(positions.get(`spend:${HTLC}:${p.swapId}`)).toContain('"token":"t3"');
    await reader.readHtlc(p);
    const resumed = node.paramsOf("starknet_getEvents")[3] as { filter: { continuation_token?: string } };
    expect(resumed.filter.continuation_token).toBe("t3");
  });

  it("refuses a stated swap id in another form than the service prints", async () => {
    const p = params();
    const node = withOrder(new FakeStarknetNode(), storedOrder(p));
    const { reader } = familyOn(node);
    await expect(reader.readHtlc({ ...p, swapId: `0x${p.swapId}` })).rejects.toThrow(/without 0x/);
    await expect(reader.readHtlc({ ...p, swapId: `0${p.swapId}` })).rejects.toThrow(/leading zeros/);
    expect(node.paramsOf("starknet_call")).toHaveLength(0);
  });

  it("gives a clear error for a node that answers malformed felts or a short order", async () => {
    const p = params();
    const malformed = withOrder(new FakeStarknetNode(), [...storedOrder(p).slice(0, 6), "0xzz"]);
    await expect(familyOn(malformed).reader.readHtlc(p)).rejects.toThrow(RpcShapeError);
    const short = withOrder(new FakeStarknetNode(), storedOrder(p).slice(0, 6));
    await expect(familyOn(short).reader.readHtlc(p)).rejects.toThrow(/6 felts, not 7/);
    const flag = storedOrder(p);
    flag[0] = "0x2";
    await expect(familyOn(withOrder(new FakeStarknetNode(), flag)).reader.readHtlc(p)).rejects.toThrow(
      /is_fulfilled/,
    );
  });

  it("reads nothing from an endpoint of another network", async () => {
    const p = params();
    const node = withOrder(new FakeStarknetNode(), storedOrder(p));
    node.chainId = "0x534e5f4d41494e";
    const error = await familyOn(node)
      .reader.readHtlc(p)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcUnavailableError);
    expect(String(error)).toContain("not SN_SEPOLIA");
    expect(node.paramsOf("starknet_call")).toHaveLength(0);
  });

  it("with ACCEPTED_ON_L1 finality counts a user's lock only once its block is accepted on L1", async () => {
    const p = params();
    const node = withOrder(new FakeStarknetNode(), storedOrder(p));
    const { reader } = familyOn(node, { config: { finality: "ACCEPTED_ON_L1" } });
    expect((await reader.readHtlc(p)).locks[0]?.height).toBeNull();
    node.status = "ACCEPTED_ON_L1";
    expect((await reader.readHtlc(p)).locks[0]?.height).toBe(INITIATED_AT);
  });

  it("computes the swap id of the parameters with the chain's layout", () => {
    const { reader } = familyOn(new FakeStarknetNode());
    const p = params();
    expect(reader.computeSwapId(p)).toBe(p.swapId);
    const { reader: audited } = familyOn(new FakeStarknetNode(), { config: { orderIdLayout: "audited" } });
    expect(audited.computeSwapId(p)).not.toBe(p.swapId);
  });
});

describe("the Starknet reader's changed swap ids", () => {
  it("lists the orders of a block range's HTLC events, and cannot tell past its pages", async () => {
    const event = (id: string) => ({
      from_address: HTLC,
      keys: [feltHex(EVENT_KEYS.initiated), id],
      data: [],
      transaction_hash: "0x1",
    });
    const node = new FakeStarknetNode().on("starknet_getEvents", (request) => {
      const { filter } = request as {
        filter: { continuation_token?: string; keys: string[][]; from_block: unknown };
      };
      expect(filter.keys).toEqual([
        [EVENT_KEYS.initiated, EVENT_KEYS.redeemed, EVENT_KEYS.refunded].map(feltHex),
      ]);
      expect(filter.from_block).toEqual({ block_number: 10 });
      if (filter.continuation_token === undefined)
        return { events: [event("0xabc")], continuation_token: "next" };
      return { events: [event("0x0def"), event("0xabc")] };
    });
    expect(await familyOn(node).reader.changedSwapIds(10n, 20n)).toEqual(["abc", "def"]);
    expect(await familyOn(node, { pagesPerRead: 1 }).reader.changedSwapIds(10n, 20n)).toBeNull();
  });
});
