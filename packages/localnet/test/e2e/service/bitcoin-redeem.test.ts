/**
 * Redeeming a Bitcoin destination: the service, holding the secret and the per-order redeem key, pays
 * the destination owner once both sides are locked with their confirmations; a client that keeps its
 * own secret redeems with its own key instead, and the watcher picks the secret up either way.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BitcoinUserWallet } from "../../../src/families/bitcoin/user-bitcoin.js";
import type { Order } from "htlc-solver/orderbook/types.js";
import { anvilAccount } from "../../../../../test/support/evm-accounts.js";
import {
  BTC,
  createOrder,
  newSecret,
  startBitcoinServiceEnv,
  waitForOrder,
  type BitcoinServiceEnv,
} from "./bitcoin-support.js";
import { initiateAs, ROLES } from "./support/chains.js";

const evmUser = anvilAccount(ROLES.user).address;
let env: BitcoinServiceEnv;

beforeAll(async () => {
  env = await startBitcoinServiceEnv({ evmChainId: 31_414 });
});

afterAll(async () => {
  await env?.stop();
});

function receiver(): BitcoinUserWallet {
  return BitcoinUserWallet.random({
    chain: "bitcoin_regtest",
    network: "regtest",
    rpcUrl: env.node.rpcUrl,
    rpcUser: env.node.rpcUser,
    rpcPassword: env.node.rpcPassword,
  });
}

/** The user locks the EVM source, the stand-in solver funds the Bitcoin destination; both confirmed. */
async function lockBothSides(order: Order): Promise<void> {
  const source = order.source_swap;
  await initiateAs(env.evm, "user", env.evm.htlc, { ...source, secretHash: source.secret_hash });
  await waitForOrder(env, order.order_id, (o) => o.status === "Initiated", "saw the source locked");
  const destination = order.destination_swap;
  await env.solverWallet.pay([{ address: destination.swap_id, value: BigInt(destination.amount) }]);
  await env.mine(1);
}

async function mineUntil(order: Order, done: (o: Order) => boolean, what: string): Promise<Order> {
  const until = Date.now() + 20_000;
  for (;;) {
    const current = await waitForOrder(env, order.order_id, () => true, what);
    if (done(current)) return current;
    if (Date.now() > until)
      throw new Error(`order ${order.order_id} never ${what}: ${JSON.stringify(current)}`);
    await env.mine(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

describe("Bitcoin destination redeems", () => {
  it("the service redeems for the owner with the secret it holds", async () => {
    const owner = receiver();
    const order = await createOrder(env, {
      source: { asset: `${env.evm.name}:usdc`, owner: evmUser, amount: "400000" },
      destination: { asset: BTC, owner: owner.address, amount: "400000" },
    });
    await lockBothSides(order);
    const seen = await waitForOrder(
      env,
      order.order_id,
      (o) => o.destination_swap.redeem_tx_hash !== "",
      "saw the service redeem",
    );
    const secret = seen.destination_swap.secret;
    expect(createHash("sha256").update(Buffer.from(secret, "hex")).digest("hex")).toBe(
      order.destination_swap.secret_hash,
    );
    const done = await mineUntil(order, (o) => o.status === "Redeemed", "was Redeemed");
    expect(done.destination_swap.redeem_tx_hash).toBe(seen.destination_swap.redeem_tx_hash);
    const paid = await owner.outputsOf(owner.address);
    expect(paid).toHaveLength(1);
    expect(paid[0]!.txid).toBe(seen.destination_swap.redeem_tx_hash);
    expect(paid[0]!.value).toBeGreaterThan(398_000n);
    expect(paid[0]!.value).toBeLessThan(400_000n);
  });

  it("leaves the redeem to a client that keeps its secret, and reads the secret from its redeem", async () => {
    const owner = receiver();
    const { secret, secretHash } = newSecret();
    const order = await createOrder(env, {
      source: { asset: `${env.evm.name}:usdc`, owner: evmUser, amount: "350000" },
      destination: { asset: BTC, owner: owner.address, amount: "350000", delegate: owner.xOnlyKey },
      secret_hash: secretHash,
    });
    await lockBothSides(order);
    const awaiting = await waitForOrder(
      env,
      order.order_id,
      (o) => o.status === "AwaitingRedeem",
      "awaited the redeem",
    );
    // The service does not redeem: it has neither the secret nor the key.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await waitForOrder(env, order.order_id, () => true, "")).destination_swap.redeem_tx_hash).toBe(
      "",
    );

    const txid = await owner.redeemDestination(awaiting.destination_swap, secret);
    const done = await mineUntil(order, (o) => o.status === "Redeemed", "was Redeemed");
    expect(done.destination_swap).toMatchObject({ redeem_tx_hash: txid, secret });
    expect(await owner.balance()).toBeGreaterThan(348_000n);
  });
});
