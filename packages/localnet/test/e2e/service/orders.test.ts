/** Order creation against live solver quotes, order reads, list filters and pagination. */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evmOrderId } from "htlc-solver/chains/evm/order-id.js";
import type { CreateOrderResult, Order, OrderPage } from "htlc-solver/orderbook/types.js";
import type { LocalService } from "../../../src/service/service.js";
import { freePort } from "htlc-solver/util/free-port.js";
import { anvilAccount } from "../../../../../test/support/evm-accounts.js";
import { ROLES, startTestChain, type TestChain } from "./support/chains.js";
import { startQuoteSolver, type QuoteSolver } from "./support/quote-solver.js";
import { api, ok, serviceConfig, startService } from "./support/service.js";

const user = anvilAccount(ROLES.user).address;
const otherUser = anvilAccount(ROLES.otherUser).address;
const solverAddress = anvilAccount(ROLES.solver).address;

let alpha: TestChain;
let beta: TestChain;
let solver: QuoteSolver;
let service: LocalService;
const silentSolverId = "dd".repeat(32);

beforeAll(async () => {
  [alpha, beta] = await Promise.all([startTestChain("alpha", 31_201), startTestChain("beta", 31_202)]);
  solver = await startQuoteSolver("a1".repeat(32), 9_900n);
  const config = serviceConfig(
    [{ chain: alpha, options: { requiredConfirmations: 3 } }, { chain: beta }],
    [solver],
  );
  // A registered solver whose quote endpoint nobody listens on.
  config.solvers.push({
    id: silentSolverId,
    quoteUrl: `http://127.0.0.1:${await freePort()}/quote`,
    addresses: { evm: solverAddress },
  });
  service = await startService(config);
});

afterAll(async () => {
  await service?.stop();
  await Promise.all([solver?.stop(), alpha?.anvil.stop(), beta?.anvil.stop()]);
});

function request(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    source: { asset: "alpha:usdc", owner: user, amount: "1000000" },
    destination: { asset: "beta:usdc", owner: user, amount: "990000" },
    solver_id: solver.id,
    ...overrides,
  };
}

async function createOrder(
  body: Record<string, unknown>,
): Promise<{ created: CreateOrderResult; order: Order }> {
  const created = await ok<CreateOrderResult>(service, "POST", "/v2/orders", body);
  return { created, order: await ok<Order>(service, "GET", `/v2/orders/${created.order_id}`) };
}

describe("POST /v2/orders", () => {
  it("builds both swaps with ids equal to evmOrderId and returns the EIP-712 typed data", async () => {
    const before = Math.floor(Date.now() / 1000);
    const { created, order } = await createOrder(request({ nonce: "7" }));
    const source = order.source_swap;
    const destination = order.destination_swap;

    expect(source).toMatchObject({
      chain: "alpha",
      asset: "alpha:usdc",
      initiator: getAddress(user),
      redeemer: solverAddress,
      timelock: 100,
      amount: "1000000",
      filled_amount: "0",
      asset_price: 1,
      secret: "",
      initiate_tx_hash: "",
      redeem_tx_hash: "",
      refund_tx_hash: "",
      initiate_block_number: "0",
      redeem_block_number: "0",
      refund_block_number: "0",
      required_confirmations: 3,
      current_confirmations: 0,
      initiate_timestamp: null,
      redeem_timestamp: null,
      refund_timestamp: null,
    });
    expect(destination).toMatchObject({
      chain: "beta",
      initiator: solverAddress,
      redeemer: getAddress(user),
      timelock: 50,
      amount: "990000",
      required_confirmations: 1,
    });
    expect(source.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(destination.secret_hash).toBe(source.secret_hash);
    const sourceId = evmOrderId({
      chainId: 31_201n,
      secretHash: `0x${source.secret_hash}`,
      initiator: user,
      redeemer: solverAddress,
      timelock: 100n,
      amount: 1_000_000n,
      htlc: alpha.htlc,
    });
    const destinationId = evmOrderId({
      chainId: 31_202n,
      secretHash: `0x${source.secret_hash}`,
      initiator: solverAddress,
      redeemer: user,
      timelock: 50n,
      amount: 990_000n,
      htlc: beta.htlc,
    });
    expect(source.swap_id).toBe(sourceId.slice(2));
    expect(destination.swap_id).toBe(destinationId.slice(2));

    const orderId = createHash("sha256").update(`${source.swap_id}:${destination.swap_id}:7`).digest("hex");
    expect(created.order_id).toBe(orderId);
    expect(order).toMatchObject({ order_id: orderId, status: "Created", nonce: "7", solver_id: solver.id });
    expect(order).toMatchObject({ version: "v2", affiliate_fees: [] });
    expect(order.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(order.additional_data.user_secret).toBe(false);
    expect(order.additional_data.deadline - before).toBeGreaterThanOrEqual(43_200);
    expect(order.additional_data.deadline - before).toBeLessThanOrEqual(43_202);

    expect(created.to).toBe(alpha.htlc);
    expect(created.amount).toBe("1000000");
    expect(created.typed_data).toEqual({
      domain: { name: "HTLC", version: "3", chainId: 31_201, verifyingContract: alpha.htlc },
      types: {
        EIP712Domain: [
          { name: "name", type: "string" },
          { name: "version", type: "string" },
          { name: "chainId", type: "uint256" },
          { name: "verifyingContract", type: "address" },
        ],
        Initiate: [
          { name: "redeemer", type: "address" },
          { name: "timelock", type: "uint256" },
          { name: "amount", type: "uint256" },
          { name: "secretHash", type: "bytes32" },
        ],
      },
      primaryType: "Initiate",
      message: {
        redeemer: solverAddress,
        timelock: "100",
        amount: "1000000",
        secretHash: `0x${source.secret_hash}`,
      },
    });
    const asked = solver.calls.at(-1)!;
    expect([asked.get("from"), asked.get("to"), asked.get("from_amount")]).toEqual([
      "alpha:usdc",
      "beta:usdc",
      "1000000",
    ]);
  });

  it("takes a client secret hash: user_secret is set and the hash is used on both sides", async () => {
    const secretHash = "5e".repeat(32);
    const { order } = await createOrder(request({ secret_hash: secretHash }));
    expect(order.additional_data.user_secret).toBe(true);
    expect(order.source_swap.secret_hash).toBe(secretHash);
    expect(order.destination_swap.secret_hash).toBe(secretHash);
  });

  it("refuses to reuse a secret hash for the same terms with 409", async () => {
    const body = request({ secret_hash: "6f".repeat(32) });
    await createOrder(body);
    const answer = await api(service, "POST", "/v2/orders", body);
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatch(/^an order with source swap_id [0-9a-f]{64} exists already/);
  });

  it("gives a native source no typed data and the NativeHTLC as target", async () => {
    const { created, order } = await createOrder(
      request({ source: { asset: "alpha:eth", owner: user, amount: "1000000000000000" } }),
    );
    expect(created.typed_data).toBeUndefined();
    expect(created.to).toBe(alpha.nativeHtlc);
    expect(order.source_swap.asset_price).toBe(3000.5);
  });

  it("answers 422 when the destination amount exceeds the solver's live quote", async () => {
    const answer = await api(
      service,
      "POST",
      "/v2/orders",
      request({ destination: { asset: "beta:usdc", owner: user, amount: "990001" } }),
    );
    expect(answer).toEqual({
      status: 422,
      body: {
        status: "Error",
        error: "destination.amount 990001 exceeds the solver's live quote of 990000 for beta:usdc",
      },
    });
  });

  it("builds the order at the live quote when it moved below the request within the slippage", async () => {
    // 1000000 less 100 bp is 990000, the live quote: the user accepted exactly that much.
    const { order } = await createOrder(
      request({ destination: { asset: "beta:usdc", owner: user, amount: "1000000" }, slippage: 100 }),
    );
    expect(order.destination_swap.amount).toBe("990000");
    const destinationId = evmOrderId({
      chainId: 31_202n,
      secretHash: `0x${order.destination_swap.secret_hash}`,
      initiator: solverAddress,
      redeemer: user,
      timelock: 50n,
      amount: 990_000n,
      htlc: beta.htlc,
    });
    expect(order.destination_swap.swap_id).toBe(destinationId.slice(2));
  });

  it("keeps the requested amount when the live quote gives at least that much, slippage or not", async () => {
    const { order } = await createOrder(
      request({ destination: { asset: "beta:usdc", owner: user, amount: "980000" }, slippage: 500 }),
    );
    expect(order.destination_swap.amount).toBe("980000");
  });

  it("answers 422 when the live quote moved by more than the slippage", async () => {
    // 1000001 less 100 bp, rounded up, is 990001: one more than the solver gives now.
    const answer = await api(
      service,
      "POST",
      "/v2/orders",
      request({ destination: { asset: "beta:usdc", owner: user, amount: "1000001" }, slippage: 100 }),
    );
    expect(answer).toEqual({
      status: 422,
      body: {
        status: "Error",
        error:
          "destination.amount 1000001 exceeds the solver's live quote of 990000 for beta:usdc by more than the slippage of 100 bp",
      },
    });
  });

  it("answers 422 when the solver no longer quotes the pair", async () => {
    solver.refuse = "paused";
    try {
      const answer = await api(service, "POST", "/v2/orders", request());
      expect(answer.status).toBe(422);
      expect(answer.body.error).toBe(
        `solver ${solver.id} gives no quote for alpha:usdc -> beta:usdc now: paused`,
      );
    } finally {
      solver.refuse = null;
    }
  });

  it("answers 502 when the solver is unreachable", async () => {
    const answer = await api(service, "POST", "/v2/orders", request({ solver_id: silentSolverId }));
    expect(answer.status).toBe(502);
    expect(answer.body.status).toBe("Error");
    expect(answer.body.error).toMatch(new RegExp(`^solver ${silentSolverId} is unreachable: `));
  });

  const badOwner = "0x00000000000000000000000000000000000000zz";
  it.each<[string, Record<string, unknown>, string]>([
    ["no solver", { solver_id: undefined }, "solver_id is required (a non-empty string)"],
    [
      "unknown solver",
      { solver_id: "ee".repeat(32) },
      `solver_id ${"ee".repeat(32)} is not a registered solver`,
    ],
    ["no source", { source: undefined }, "source must be a JSON object"],
    [
      "unknown asset",
      { source: { asset: "alpha:doge", owner: user, amount: "1000" } },
      "source.asset alpha:doge is not a supported asset",
    ],
    [
      "bad owner",
      { destination: { asset: "beta:usdc", owner: badOwner, amount: "1" } },
      `destination.owner ${badOwner} is not a valid evm address`,
    ],
    [
      "missing owner",
      { destination: { asset: "beta:usdc", amount: "1" } },
      "destination.owner is required (a non-empty string)",
    ],
    [
      "bad amount",
      { source: { asset: "alpha:usdc", owner: user, amount: "1e6" } },
      'source.amount must be a decimal string of smallest units greater than 0, got "1e6"',
    ],
    [
      "numeric amount",
      { destination: { asset: "beta:usdc", owner: user, amount: 5 } },
      "destination.amount must be a decimal string of smallest units greater than 0, got 5",
    ],
    [
      "below minimum",
      { source: { asset: "alpha:usdc", owner: user, amount: "999" } },
      "source.amount 999 is below the minimum 1000 of alpha:usdc",
    ],
    [
      "same asset",
      { destination: { asset: "alpha:usdc", owner: user, amount: "1" } },
      "source.asset and destination.asset are both alpha:usdc",
    ],
    [
      "solver as owner",
      { source: { asset: "alpha:usdc", owner: solverAddress, amount: "1000000" } },
      `source.owner ${solverAddress} is the solver's own address`,
    ],
    [
      "bad secret hash",
      { secret_hash: "0x" + "11".repeat(32) },
      `secret_hash must be 64 hexadecimal characters without 0x, got "0x${"11".repeat(32)}"`,
    ],
    ["bad nonce", { nonce: "abc" }, 'nonce must be a numeric string, got "abc"'],
    [
      "slippage above 100 %",
      { slippage: 10_001 },
      "slippage must be an integer number of basis points from 0 to 10000, got 10001",
    ],
  ])("answers 400 for %s", async (_name, overrides, error) => {
    const answer = await api(service, "POST", "/v2/orders", request(overrides));
    expect(answer).toEqual({ status: 400, body: { status: "Error", error } });
  });
});

describe("GET /v2/orders/{id}", () => {
  it("answers 404 for an unknown order and 400 for a malformed id", async () => {
    expect(await api(service, "GET", `/v2/orders/${"0".repeat(64)}`)).toEqual({
      status: 404,
      body: { status: "Error", error: `unknown order ${"0".repeat(64)}` },
    });
    expect(await api(service, "GET", "/v2/orders/xyz")).toEqual({
      status: 400,
      body: { status: "Error", error: "order id xyz is not 64 hexadecimal characters" },
    });
  });
});

describe("GET /v2/orders", () => {
  const ids: string[] = [];

  beforeAll(async () => {
    // Newest last: alpha->beta by user, beta->alpha by otherUser, alpha->beta to otherUser.
    ids.push((await createOrder(request())).order.order_id);
    ids.push(
      (
        await createOrder(
          request({
            source: { asset: "beta:usdc", owner: otherUser, amount: "2000000" },
            destination: { asset: "alpha:usdc", owner: otherUser, amount: "1980000" },
          }),
        )
      ).order.order_id,
    );
    ids.push(
      (
        await createOrder(
          request({ destination: { asset: "beta:usdc", owner: otherUser, amount: "990000" } }),
        )
      ).order.order_id,
    );
  });

  const list = (query: string): Promise<OrderPage> => ok<OrderPage>(service, "GET", `/v2/orders?${query}`);
  const inIds = (page: OrderPage): string[] =>
    page.data.map((order) => order.order_id).filter((id) => ids.includes(id));

  it("filters by owners, address (any case), chains and status", async () => {
    expect(inIds(await list(`from_owner=${otherUser.toLowerCase()}`))).toEqual([ids[1]]);
    expect(inIds(await list(`to_owner=${otherUser}`))).toEqual([ids[2], ids[1]]);
    expect(inIds(await list(`address=${otherUser.toUpperCase().replace("0X", "0x")}`))).toEqual([
      ids[2],
      ids[1],
    ]);
    expect(inIds(await list(`address=${solverAddress.toLowerCase()}`))).toEqual([ids[2], ids[1], ids[0]]);
    expect(inIds(await list("from_chain=beta"))).toEqual([ids[1]]);
    expect(inIds(await list("to_chain=beta&from_owner=" + user))).toEqual([ids[2], ids[0]]);
    expect(inIds(await list("status=Created,Expired"))).toEqual([ids[2], ids[1], ids[0]]);
    expect((await list("status=Redeemed")).total_items).toBe(0);
  });

  it("pages newest first with totals; per_page is capped at 100", async () => {
    const all = await list("per_page=100");
    expect(all.total_items).toBe(all.data.length);
    expect(all.data.slice(0, 3).map((order) => order.order_id)).toEqual([ids[2], ids[1], ids[0]]);
    const first = await list("per_page=2&page=1");
    const second = await list("per_page=2&page=2");
    expect(first).toMatchObject({ page: 1, per_page: 2, total_items: all.total_items });
    expect(first.total_pages).toBe(Math.ceil(all.total_items / 2));
    expect([...first.data, ...second.data].map((order) => order.order_id)).toEqual(
      all.data.slice(0, 4).map((order) => order.order_id),
    );
    expect((await list(`page=${all.total_items + 1}`)).data).toEqual([]);
    expect((await list("per_page=500")).per_page).toBe(100);
    const defaults = await list("");
    expect([defaults.page, defaults.per_page]).toEqual([1, 10]);
  });

  it.each([
    ["page=0", 'page must be an integer >= 1, got "0"'],
    ["per_page=x", 'per_page must be an integer >= 1, got "x"'],
    [
      "status=Done",
      "status Done is not one of Created, InitiateDetected, Initiated, AwaitingRedeem, RedeemDetected, Redeemed, Refunded, Expired",
    ],
    ["tx_hash=0x12", "tx_hash 0x12 is not a 64-hex transaction hash"],
  ])("answers 400 for %s", async (query, error) => {
    expect(await api(service, "GET", `/v2/orders?${query}`)).toEqual({
      status: 400,
      body: { status: "Error", error },
    });
  });
});

describe("persistence", () => {
  it("keeps orders and their secrets across a restart on the same database file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "local-service-"));
    try {
      const config = {
        ...serviceConfig([{ chain: alpha }, { chain: beta }], [solver]),
        dbPath: join(dir, "service.db"),
      };
      const first = await startService(config);
      const created = await ok<CreateOrderResult>(first, "POST", "/v2/orders", request());
      const before = await ok<Order>(first, "GET", `/v2/orders/${created.order_id}`);
      await first.stop();
      const second = await startService(config);
      try {
        expect(await ok<Order>(second, "GET", `/v2/orders/${created.order_id}`)).toEqual(before);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
