/**
 * Order creation with a Bitcoin side: the deposit address and every swap id rebuild from the order's
 * own fields with bitcoinHtlc, the keys sit where docs/protocol.md ("Which key is which") puts them, and
 * the Bitcoin-only rules of the request are enforced.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bitcoinHtlc } from "htlc-solver/chains/bitcoin/htlc.js";
import type { ChainInfo, CreateOrderResult } from "htlc-solver/orderbook/types.js";
import { anvilAccount } from "../../../../../test/support/evm-accounts.js";
import {
  BTC,
  createOrder,
  getOrder,
  newSecret,
  startBitcoinServiceEnv,
  type BitcoinServiceEnv,
} from "./bitcoin-support.js";
import { ROLES } from "./support/chains.js";
import { api, ok } from "./support/service.js";

const evmUser = anvilAccount(ROLES.user).address;
let env: BitcoinServiceEnv;
let usdc: string;

beforeAll(async () => {
  env = await startBitcoinServiceEnv({ evmChainId: 31_411 });
  usdc = `${env.evm.name}:usdc`;
});

afterAll(async () => {
  await env?.stop();
});

describe("Bitcoin orders on the local service", () => {
  it("gives a Bitcoin source a fresh initiator key and returns the HTLC address to pay", async () => {
    const created = await ok<CreateOrderResult>(env.service, "POST", "/v2/orders", {
      source: { asset: BTC, owner: env.user.address, amount: "250000" },
      destination: { asset: usdc, owner: evmUser, amount: "250000" },
      solver_id: env.quoteSolver.id,
    });
    const order = await getOrder(env, created.order_id);
    const source = order.source_swap;
    expect(source.initiator).toBe(env.user.address);
    expect(source.redeemer).toBe(env.solverKey.xOnlyHex);
    expect(source.delegate).toMatch(/^[0-9a-f]{64}$/);
    expect(source.timelock).toBe(144);
    const htlc = bitcoinHtlc({
      initiatorKey: source.delegate!,
      redeemerKey: env.solverKey.xOnlyHex,
      secretHash: source.secret_hash,
      timelock: source.timelock,
      network: "regtest",
    });
    expect(source.swap_id).toBe(htlc.address);
    expect(created.to).toBe(htlc.address);
    expect(created.amount).toBe("250000");
    expect(created.typed_data).toBeUndefined();
    expect(source.instant_refund_tx).toBeUndefined();
    // The service's key never leaves it: only the x-only public key appears anywhere in the order.
    expect(JSON.stringify(order)).not.toMatch(/private/i);
  });

  it("accepts a Bitcoin source without an owner (refund address given later)", async () => {
    const order = await createOrder(env, {
      source: { asset: BTC, amount: "100000" },
      destination: { asset: usdc, owner: evmUser, amount: "100000" },
    });
    expect(order.source_swap.initiator).toBe("");
    const again = await createOrder(env, {
      source: { asset: BTC, owner: "", amount: "100000" },
      destination: { asset: usdc, owner: evmUser, amount: "100000" },
    });
    // A fresh key per order: equal terms never share a deposit address.
    expect(again.source_swap.delegate).not.toBe(order.source_swap.delegate);
    expect(again.source_swap.swap_id).not.toBe(order.source_swap.swap_id);
  });

  it("locks a Bitcoin destination to the solver's key and a service key that redeems for the owner", async () => {
    const order = await createOrder(env, {
      source: { asset: usdc, owner: evmUser, amount: "300000" },
      destination: { asset: BTC, owner: env.user.address, amount: "300000" },
    });
    const destination = order.destination_swap;
    expect(destination.initiator).toBe(env.solverKey.xOnlyHex);
    expect(destination.redeemer).toBe(env.user.address);
    expect(destination.delegate).toMatch(/^[0-9a-f]{64}$/);
    expect(destination.timelock).toBe(12);
    const htlc = bitcoinHtlc({
      initiatorKey: env.solverKey.xOnlyHex,
      redeemerKey: destination.delegate!,
      secretHash: destination.secret_hash,
      timelock: 12,
      network: "regtest",
    });
    expect(destination.swap_id).toBe(htlc.address);
    expect(order.additional_data.user_secret).toBe(false);
  });

  it("uses the client's own redeem key when the client keeps the secret", async () => {
    const { secretHash } = newSecret();
    const order = await createOrder(env, {
      source: { asset: usdc, owner: evmUser, amount: "300000" },
      destination: { asset: BTC, owner: env.user.address, amount: "300000", delegate: env.user.xOnlyKey },
      secret_hash: secretHash,
    });
    expect(order.destination_swap.delegate).toBe(env.user.xOnlyKey);
    expect(order.additional_data.user_secret).toBe(true);
    const htlc = bitcoinHtlc({
      initiatorKey: env.solverKey.xOnlyHex,
      redeemerKey: env.user.xOnlyKey,
      secretHash,
      timelock: 12,
      network: "regtest",
    });
    expect(order.destination_swap.swap_id).toBe(htlc.address);
  });

  it.each<[string, (secretHash: string) => Record<string, unknown>, string]>([
    [
      "a client secret without destination.delegate",
      (secretHash) => ({
        source: { asset: usdc, owner: evmUser, amount: "300000" },
        destination: { asset: BTC, owner: "OWNER", amount: "300000" },
        secret_hash: secretHash,
      }),
      "destination.delegate (the x-only key that redeems, 64 hex) is required",
    ],
    [
      "a destination.delegate that is not a key",
      (secretHash) => ({
        source: { asset: usdc, owner: evmUser, amount: "300000" },
        destination: { asset: BTC, owner: "OWNER", amount: "300000", delegate: "ff".repeat(32) },
        secret_hash: secretHash,
      }),
      "is not an x-only public key",
    ],
    [
      "a destination.delegate without a client secret",
      () => ({
        source: { asset: usdc, owner: evmUser, amount: "300000" },
        destination: { asset: BTC, owner: "OWNER", amount: "300000", delegate: "KEY" },
      }),
      "destination.delegate is only for a client that sends secret_hash",
    ],
    [
      "a source.delegate on Bitcoin",
      () => ({
        source: { asset: BTC, owner: "OWNER", amount: "300000", delegate: "KEY" },
        destination: { asset: usdc, owner: evmUser, amount: "300000" },
      }),
      "source.delegate is not accepted on Bitcoin",
    ],
    [
      "an EVM address as a Bitcoin owner",
      () => ({
        source: { asset: usdc, owner: evmUser, amount: "300000" },
        destination: { asset: BTC, owner: evmUser, amount: "300000" },
      }),
      "is not a valid bitcoin address",
    ],
    [
      "a mainnet address on regtest",
      () => ({
        source: { asset: BTC, owner: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", amount: "300000" },
        destination: { asset: usdc, owner: evmUser, amount: "300000" },
      }),
      "is not a valid bitcoin address",
    ],
  ])("refuses %s with 400", async (_name, body, message) => {
    const filled = JSON.parse(
      JSON.stringify(body(newSecret().secretHash))
        .replaceAll('"OWNER"', JSON.stringify(env.user.address))
        .replaceAll('"KEY"', JSON.stringify(env.user.xOnlyKey)),
    ) as Record<string, unknown>;
    const answer = await api(env.service, "POST", "/v2/orders", { ...filled, solver_id: env.quoteSolver.id });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain(message);
  });

  it("lists the Bitcoin chain and its asset", async () => {
    const chains = await ok<ChainInfo[]>(env.service, "GET", "/v2/chains");
    const bitcoin = chains.find((chain) => chain.name === "bitcoin_regtest");
    expect(bitcoin).toMatchObject({
      family: "bitcoin",
      id: "regtest",
      source_timelock: 144,
      destination_timelock: 12,
      htlc: null,
      assets: [{ id: BTC, decimals: 8, token_address: "primary", htlc_address: "", fiat_value: "60000" }],
    });
  });
});
