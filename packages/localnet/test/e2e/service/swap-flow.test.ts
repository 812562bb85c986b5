/**
 * Whole swaps through the local service on two real anvil chains: signed initiates relayed by the
 * service, the watcher filling each swap from the chain, the service redeeming for the user, a client
 * that keeps its own secret, a refund, a native source and an expired order.
 */
import { createHash } from "node:crypto";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreateOrderResult, Order } from "htlc-solver/orderbook/types.js";
import type { LocalService } from "../../../src/service/service.js";
import { anvilAccount } from "../../../../../test/support/evm-accounts.js";
import {
  initiateAs,
  redeemAs,
  refundAs,
  ROLES,
  startTestChain,
  tokenBalance,
  type TestChain,
} from "./support/chains.js";
import { startQuoteSolver, type QuoteSolver } from "./support/quote-solver.js";
import { api, ok, serviceConfig, startService, waitForOrder } from "./support/service.js";

const user = anvilAccount(ROLES.user);
const relayer = anvilAccount(ROLES.relayer).address;
const SOURCE_TIMELOCK = 10;

let alpha: TestChain;
let beta: TestChain;
let solver: QuoteSolver;
let service: LocalService;

beforeAll(async () => {
  [alpha, beta] = await Promise.all([startTestChain("alpha", 31_301), startTestChain("beta", 31_302)]);
  solver = await startQuoteSolver("a1".repeat(32), 9_900n);
  service = await startService(
    serviceConfig(
      [
        { chain: alpha, options: { requiredConfirmations: 2, sourceTimelock: SOURCE_TIMELOCK } },
        { chain: beta },
      ],
      [solver],
    ),
  );
});

afterAll(async () => {
  await service?.stop();
  await Promise.all([solver?.stop(), alpha?.anvil.stop(), beta?.anvil.stop()]);
});

interface TypedDataJson {
  domain: { name: string; version: string; chainId: number; verifyingContract: Address };
  types: { Initiate: { name: string; type: string }[] };
  message: { redeemer: Address; timelock: string; amount: string; secretHash: Hex };
}

async function create(extra: Record<string, unknown> = {}): Promise<CreateOrderResult> {
  return ok<CreateOrderResult>(service, "POST", "/v2/orders", {
    source: { asset: "alpha:usdc", owner: user.address, amount: "1000000" },
    destination: { asset: "beta:usdc", owner: user.address, amount: "990000" },
    solver_id: solver.id,
    ...extra,
  });
}

function sign(signer: keyof typeof ROLES, created: CreateOrderResult): Promise<Hex> {
  const data = created.typed_data as TypedDataJson;
  return anvilAccount(ROLES[signer]).signTypedData({
    domain: data.domain,
    types: { Initiate: data.types.Initiate },
    primaryType: "Initiate",
    message: {
      ...data.message,
      timelock: BigInt(data.message.timelock),
      amount: BigInt(data.message.amount),
    },
  });
}

async function initiate(created: CreateOrderResult, signer: keyof typeof ROLES = "user") {
  return api(service, "PATCH", `/v2/orders/${created.order_id}?action=initiate`, {
    signature: await sign(signer, created),
  });
}

/** Relays a signed initiate and mines until the source has its 2 confirmations. */
async function initiateConfirmed(created: CreateOrderResult): Promise<Order> {
  const answer = await initiate(created);
  expect(answer.status).toBe(200);
  await waitForOrder(service, created.order_id, (order) => order.status === "InitiateDetected");
  await alpha.test.mine({ blocks: 1 });
  return waitForOrder(service, created.order_id, (order) => order.status === "Initiated");
}

async function blockTime(chain: TestChain, block: bigint): Promise<string> {
  const { timestamp } = await chain.pub.getBlock({ blockNumber: block });
  return new Date(Number(timestamp) * 1000).toISOString();
}

const sha256 = (hex: string): string => createHash("sha256").update(Buffer.from(hex, "hex")).digest("hex");

describe("signed initiate and service redeem", () => {
  let created: CreateOrderResult;

  beforeAll(async () => {
    created = await create();
  });

  it("refuses a signature of another key, and a malformed one, with 400", async () => {
    const answer = await initiate(created, "otherUser");
    const other = anvilAccount(ROLES.otherUser).address;
    expect(answer).toEqual({
      status: 400,
      body: {
        status: "Error",
        error: `signature recovers to ${other}, not to the source initiator ${user.address}`,
      },
    });
    const malformed = await api(service, "PATCH", `/v2/orders/${created.order_id}?action=initiate`, {
      signature: "0x1234",
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.status).toBe("Error");
    expect(
      (await api(service, "PATCH", `/v2/orders/${created.order_id}?action=initiate`, {})).body.error,
    ).toBe("signature is required");
  });

  it("relays a valid signature; the watcher fills the source and counts confirmations", async () => {
    const answer = await initiate(created);
    expect(answer.status).toBe(200);
    const txHash = answer.body.result as Hex;
    // The service answers once the relay is sent, as the live one does: the receipt may come a moment later.
    const receipt = await alpha.pub.waitForTransactionReceipt({
      hash: txHash,
      pollingInterval: 50,
      timeout: 10_000,
    });
    expect(receipt.status).toBe("success");
    expect(receipt.from.toLowerCase()).toBe(relayer.toLowerCase());

    const detected = await waitForOrder(
      service,
      created.order_id,
      (order) => order.status === "InitiateDetected",
    );
    expect(detected.source_swap).toMatchObject({
      initiate_tx_hash: txHash,
      initiate_block_number: receipt.blockNumber.toString(),
      initiate_timestamp: await blockTime(alpha, receipt.blockNumber),
      filled_amount: "1000000",
      current_confirmations: 1,
    });
    const again = await initiate(created);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(`order ${created.order_id} is already initiated (tx ${txHash})`);

    await alpha.test.mine({ blocks: 1 });
    const initiated = await waitForOrder(service, created.order_id, (order) => order.status === "Initiated");
    expect(initiated.source_swap.current_confirmations).toBe(2);
    await alpha.test.mine({ blocks: 3 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const later = await ok<Order>(service, "GET", `/v2/orders/${created.order_id}`);
    expect(later.source_swap.current_confirmations).toBe(2);

    const byTx = await ok<{ data: Order[] }>(
      service,
      "GET",
      `/v2/orders?tx_hash=${txHash.toUpperCase().slice(2)}`,
    );
    expect(byTx.data.map((order) => order.order_id)).toEqual([created.order_id]);
  });

  it("redeems the destination for the user once the solver fills it; the solver's source redeem is seen", async () => {
    const order = await ok<Order>(service, "GET", `/v2/orders/${created.order_id}`);
    const destination = order.destination_swap;
    const balanceBefore = await tokenBalance(beta, user.address);
    await initiateAs(beta, "solver", beta.htlc, {
      redeemer: destination.redeemer,
      timelock: destination.timelock,
      amount: destination.amount,
      secretHash: destination.secret_hash,
    });

    const redeemed = await waitForOrder(service, created.order_id, (o) => o.status === "Redeemed");
    const swap = redeemed.destination_swap;
    expect(swap.initiate_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(swap.current_confirmations).toBe(1);
    expect(swap.redeem_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(swap.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(sha256(swap.secret)).toBe(swap.secret_hash);
    const redeemReceipt = await beta.pub.getTransactionReceipt({ hash: swap.redeem_tx_hash as Hex });
    expect(redeemReceipt.from.toLowerCase()).toBe(relayer.toLowerCase());
    expect(swap.redeem_block_number).toBe(redeemReceipt.blockNumber.toString());
    expect(swap.redeem_timestamp).toBe(await blockTime(beta, redeemReceipt.blockNumber));
    expect(await tokenBalance(beta, user.address)).toBe(balanceBefore + 990_000n);

    // The solver claims the source with the revealed secret; the order records it too.
    const sourceRedeem = await redeemAs(
      alpha,
      "solver",
      alpha.htlc,
      redeemed.source_swap.swap_id,
      swap.secret,
    );
    const done = await waitForOrder(service, created.order_id, (o) => o.source_swap.redeem_tx_hash !== "");
    expect(done.source_swap.redeem_tx_hash).toBe(sourceRedeem);
    expect(done.source_swap.secret).toBe(swap.secret);
    expect(done.status).toBe("Redeemed");
  });
});

describe("relay refusals", () => {
  it("refuses with 409 naming the contract error when the initiate would revert", async () => {
    // Account 5 holds no tokens and approved nothing.
    const poor = anvilAccount(5);
    const created = await ok<CreateOrderResult>(service, "POST", "/v2/orders", {
      source: { asset: "alpha:usdc", owner: poor.address, amount: "1000000" },
      destination: { asset: "beta:usdc", owner: poor.address, amount: "990000" },
      solver_id: solver.id,
    });
    const data = created.typed_data as TypedDataJson;
    const signature = await poor.signTypedData({
      domain: data.domain,
      types: { Initiate: data.types.Initiate },
      primaryType: "Initiate",
      message: {
        ...data.message,
        timelock: BigInt(data.message.timelock),
        amount: BigInt(data.message.amount),
      },
    });
    const answer = await api(service, "PATCH", `/v2/orders/${created.order_id}?action=initiate`, {
      signature,
    });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe(
      `initiateWithSignature on HTLC ${alpha.htlc} would revert: ERC20InsufficientAllowance(${alpha.htlc}, 0, 1000000)`,
    );
    const order = await ok<Order>(service, "GET", `/v2/orders/${created.order_id}`);
    expect(order.status).toBe("Created");
  });
});

describe("client-held secret", () => {
  it("does not redeem for the client and picks up the client's own redeem", async () => {
    const secret = "c3".repeat(32);
    const created = await create({ secret_hash: sha256(secret) });
    const order = await initiateConfirmed(created);
    const destination = order.destination_swap;
    await initiateAs(beta, "solver", beta.htlc, {
      redeemer: destination.redeemer,
      timelock: destination.timelock,
      amount: destination.amount,
      secretHash: destination.secret_hash,
    });
    await waitForOrder(service, created.order_id, (o) => o.status === "AwaitingRedeem");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const waiting = await ok<Order>(service, "GET", `/v2/orders/${created.order_id}`);
    expect(waiting.status).toBe("AwaitingRedeem");
    expect(waiting.destination_swap.redeem_tx_hash).toBe("");

    const hash = await redeemAs(beta, "user", beta.htlc, destination.swap_id, secret);
    const redeemed = await waitForOrder(service, created.order_id, (o) => o.status === "Redeemed");
    expect(redeemed.destination_swap.redeem_tx_hash).toBe(hash);
    expect(redeemed.destination_swap.secret).toBe(secret);
  });
});

describe("refund", () => {
  it("records the user's refund of an expired source in the refund fields", async () => {
    const created = await create();
    const order = await initiateConfirmed(created);
    await alpha.test.mine({ blocks: SOURCE_TIMELOCK + 1 });
    const hash = await refundAs(alpha, "user", alpha.htlc, order.source_swap.swap_id);
    const refunded = await waitForOrder(service, created.order_id, (o) => o.status === "Refunded");
    const receipt = await alpha.pub.getTransactionReceipt({ hash });
    expect(refunded.source_swap).toMatchObject({
      refund_tx_hash: hash,
      refund_block_number: receipt.blockNumber.toString(),
      refund_timestamp: await blockTime(alpha, receipt.blockNumber),
      redeem_tx_hash: "",
    });
  });
});

describe("native source", () => {
  it("refuses to relay (409) and sees the user's own initiate", async () => {
    const created = await create({
      source: { asset: "alpha:eth", owner: user.address, amount: "1000000000000000" },
    });
    const answer = await api(service, "PATCH", `/v2/orders/${created.order_id}?action=initiate`, {
      signature: "0x" + "11".repeat(65),
    });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe(
      `order ${created.order_id} has a native-coin source (alpha:eth): the user calls NativeHTLC.initiate itself`,
    );
    const order = await ok<Order>(service, "GET", `/v2/orders/${created.order_id}`);
    const source = order.source_swap;
    const hash = await initiateAs(
      alpha,
      "user",
      alpha.nativeHtlc,
      {
        redeemer: source.redeemer,
        timelock: source.timelock,
        amount: source.amount,
        secretHash: source.secret_hash,
      },
      BigInt(source.amount),
    );
    const detected = await waitForOrder(service, created.order_id, (o) => o.status === "InitiateDetected");
    expect(detected.source_swap.initiate_tx_hash).toBe(hash);
    expect(detected.source_swap.filled_amount).toBe(source.amount);
  });
});

describe("deadlines", () => {
  it("expires an order not initiated before its deadline and refuses to relay it", async () => {
    const shortLived = await startService({
      ...serviceConfig([{ chain: alpha }, { chain: beta }], [solver]),
      deadlines: { initiateConfirmSeconds: 1 },
    });
    try {
      const created = await ok<CreateOrderResult>(shortLived, "POST", "/v2/orders", {
        source: { asset: "alpha:usdc", owner: user.address, amount: "1000000" },
        destination: { asset: "beta:usdc", owner: user.address, amount: "990000" },
        solver_id: solver.id,
      });
      const expired = await waitForOrder(shortLived, created.order_id, (o) => o.status === "Expired", 10_000);
      const answer = await api(shortLived, "PATCH", `/v2/orders/${created.order_id}?action=initiate`, {
        signature: await sign("user", created),
      });
      expect(answer.status).toBe(409);
      expect(answer.body.error).toBe(
        `order ${created.order_id} is past its deadline ${new Date(expired.additional_data.deadline * 1000).toISOString()}`,
      );
    } finally {
      await shortLived.stop();
    }
  });
});
