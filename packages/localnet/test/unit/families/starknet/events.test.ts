import { afterEach, describe, expect, it } from "vitest";
import { startLocalStarknet, type LocalStarknet } from "../../../../src/families/starknet/chain/index.js";
import { starknetRpc, StarknetNodeError } from "../../../../src/families/starknet/chain/local-account.js";
import { rpcError, selector } from "./helpers.js";

let sn: LocalStarknet | undefined;
afterEach(async () => {
  await sn?.stop();
  sn = undefined;
});

interface EventsPage {
  events: {
    from_address: string;
    keys: string[];
    data: string[];
    block_number: number;
    transaction_hash: string;
  }[];
  continuation_token?: string;
}

const hex = (v: bigint) => `0x${v.toString(16)}`;
const HTLC_LIKE = "0x1111";
const OTHER = "0x2222";

async function allPages(
  url: string,
  filter: Record<string, unknown>,
): Promise<{ pages: number[]; events: EventsPage["events"] }> {
  const events: EventsPage["events"] = [];
  let token: string | undefined;
  const pages: number[] = [];
  do {
    const page = await starknetRpc<EventsPage>(url, "starknet_getEvents", {
      filter: { ...filter, ...(token === undefined ? {} : { continuation_token: token }) },
    });
    events.push(...page.events);
    token = page.continuation_token;
    pages.push(page.events.length);
  } while (token !== undefined);
  return { pages, events };
}

describe("starknet_getEvents", () => {
  it("pages past 1000 events with continuation tokens, filtered by address and keys", async () => {
    const chain = (sn = await startLocalStarknet({ blockMs: 0 }));
    const initiated = selector("Initiated");
    const redeemed = selector("Redeemed");
    // 1 200 Initiated look-alikes at the HTLC-like address, spread over two blocks, and noise elsewhere.
    chain.emitEvent(HTLC_LIKE, [initiated, 1n], [7n], 600);
    chain.emitEvent(OTHER, [initiated, 1n], [8n], 300);
    chain.mineBlock();
    chain.emitEvent(HTLC_LIKE, [initiated, 2n], [9n], 600);
    chain.emitEvent(HTLC_LIKE, [redeemed, 2n], [], 5);
    chain.mineBlock();

    const byAddress = await allPages(chain.url, {
      address: HTLC_LIKE,
      keys: [[hex(initiated)]],
      chunk_size: 1000,
    });
    expect(byAddress.pages).toEqual([1000, 200]);
    expect(byAddress.events).toHaveLength(1200);
    expect(byAddress.events.every((e) => e.from_address === HTLC_LIKE && e.keys[0] === hex(initiated))).toBe(
      true,
    );
    expect(byAddress.events.slice(0, 600).every((e) => e.block_number === 1)).toBe(true);
    expect(byAddress.events.slice(600).every((e) => e.block_number === 2)).toBe(true);

    const secondKey = await allPages(chain.url, {
      address: HTLC_LIKE,
      keys: [[], [hex(2n)]],
      chunk_size: 250,
    });
    expect(secondKey.events).toHaveLength(605);
    expect(secondKey.pages).toEqual([250, 250, 105]);
    const alternatives = await allPages(chain.url, {
      keys: [[hex(initiated), hex(redeemed)], [hex(1n)]],
      chunk_size: 1000,
    });
    expect(alternatives.events).toHaveLength(900);
    expect(alternatives.events.filter((e) => e.from_address === OTHER)).toHaveLength(300);

    const blockTwo = await allPages(chain.url, {
      from_block: { block_number: 2 },
      to_block: "latest",
      address: HTLC_LIKE,
      chunk_size: 1000,
    });
    expect(blockTwo.events).toHaveLength(605);
    const blockOne = await allPages(chain.url, {
      from_block: { block_number: 1 },
      to_block: { block_number: 1 },
      chunk_size: 1000,
    });
    // The emitting transactions also pay their fee: one STRK Transfer each.
    expect(blockOne.events.filter((e) => e.from_address !== chain.feeToken)).toHaveLength(900);
  });

  it("refuses a chunk above 1000 (31) and a token it did not issue (33)", async () => {
    const chain = (sn = await startLocalStarknet({ blockMs: 0 }));
    const tooBig = await rpcError(
      starknetRpc(chain.url, "starknet_getEvents", { filter: { chunk_size: 1001 } }),
    );
    expect(tooBig.code).toBe(31);
    const bad = await rpcError(
      starknetRpc(chain.url, "starknet_getEvents", {
        filter: { chunk_size: 10, continuation_token: "not-a-token" },
      }),
    );
    expect(bad).toBeInstanceOf(StarknetNodeError);
    expect(bad.code).toBe(33);
  });
});
