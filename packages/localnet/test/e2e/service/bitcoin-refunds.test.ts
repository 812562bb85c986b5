/**
 * Getting a Bitcoin source back through the local service: the solver's instant refund completed with
 * the per-order initiator key (refused when it does not match), broadcast by the user and confirmed;
 * and the CSV refund action, refused before expiry and paid to the given address after it.
 */
import { address as btcAddress, networks, Transaction } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInstantRefund } from "htlc-solver/chains/bitcoin/htlc-spend.js";
import { BitcoinUserWallet, sourceHtlc } from "../../../src/families/bitcoin/user-bitcoin.js";
import type { Order } from "htlc-solver/orderbook/types.js";
import { anvilAccount } from "../../../../../test/support/evm-accounts.js";
import {
  BTC,
  createOrder,
  getOrder,
  instantRefund,
  refund,
  startBitcoinServiceEnv,
  waitForOrder,
  type BitcoinServiceEnv,
} from "./bitcoin-support.js";
import { ROLES } from "./support/chains.js";

const SOURCE_TIMELOCK = 10;
const evmUser = anvilAccount(ROLES.user).address;
let env: BitcoinServiceEnv;

beforeAll(async () => {
  env = await startBitcoinServiceEnv({ evmChainId: 31_413, sourceTimelock: SOURCE_TIMELOCK });
});

afterAll(async () => {
  await env?.stop();
});

async function fundedSource(owner: string | null, values: bigint[]): Promise<Order> {
  const amount = values.reduce((s, v) => s + v, 0n).toString();
  const order = await createOrder(env, {
    source: { asset: BTC, amount, ...(owner === null ? {} : { owner }) },
    destination: { asset: `${env.evm.name}:usdc`, owner: evmUser, amount },
  });
  await env.user.pay(values.map((value) => ({ address: order.source_swap.swap_id, value })));
  await env.mine(1);
  return waitForOrder(env, order.order_id, (o) => o.status === "Initiated", "became Initiated");
}

/** The solver's half of an instant refund, as the solver's executor makes it. */
async function solverHalf(order: Order, payTo: string, feeRateSatVb = 2n): Promise<string> {
  const htlc = sourceHtlc(order.source_swap, "regtest");
  const utxos = (await env.solverWallet.outputsOf(htlc.address)).filter((o) => o.spentBy === null);
  return signInstantRefund(htlc, utxos, payTo, { key: env.solverKey, feeRateSatVb }).partialTxHex;
}

const otherAddress = (): string =>
  BitcoinUserWallet.random({
    chain: "bitcoin_regtest",
    network: "regtest",
    rpcUrl: env.node.rpcUrl,
    rpcUser: env.node.rpcUser,
    rpcPassword: env.node.rpcPassword,
  }).address;

describe("instant refund of a Bitcoin source", () => {
  it("completes the solver's half for the owner, who broadcasts it", async () => {
    const order = await fundedSource(env.user.address, [150_000n, 100_000n]);
    const partial = await solverHalf(order, env.user.address);
    const answer = await instantRefund(env, order.order_id, partial);
    expect(answer.status).toBe(200);
    const txid = answer.body.result as string;
    expect(txid).toBe(Transaction.fromHex(partial).getId());

    // The completed transaction survives the watcher's polls.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const stored = await getOrder(env, order.order_id);
    const complete = stored.source_swap.instant_refund_tx ?? "";
    const tx = Transaction.fromHex(complete);
    expect(tx.getId()).toBe(txid);
    expect(tx.ins.every((input) => input.witness.length === 4)).toBe(true);
    const userScript = btcAddress.toOutputScript(env.user.address, networks.regtest);
    expect(tx.outs.every((out) => Buffer.from(out.script).equals(Buffer.from(userScript)))).toBe(true);

    const before = await env.user.balance();
    expect(await env.user.broadcast(complete)).toBe(txid);
    const height = await env.mine(1);
    const refunded = await waitForOrder(env, order.order_id, (o) => o.status === "Refunded", "was refunded");
    expect(refunded.source_swap).toMatchObject({ refund_tx_hash: txid, refund_block_number: String(height) });
    const paid = tx.outs.reduce((s, out) => s + out.value, 0n);
    expect(paid).toBeGreaterThan(249_000n);
    expect(await env.user.balance()).toBe(before + paid);

    const again = await instantRefund(env, order.order_id, partial);
    expect(again.status).toBe(409);
  });

  it("refuses a half that does not match the HTLC, the owner or the fee cap", async () => {
    const order = await fundedSource(env.user.address, [120_000n, 80_000n]);
    const elsewhere = await solverHalf(order, otherAddress());
    const expensive = await solverHalf(order, env.user.address, 150n);
    const good = Transaction.fromHex(await solverHalf(order, env.user.address));
    const forged = good.clone();
    const sig = Buffer.from(forged.ins[0]!.witness[0]!);
    sig[10] = (sig[10] ?? 0) ^ 0xff;
    forged.setWitness(0, [sig]);
    const oneInput = good.clone();
    oneInput.ins.splice(1, 1);
    oneInput.outs.splice(1, 1);
    const cases: [string, string][] = [
      [elsewhere, "does not pay the refund address"],
      [expensive, "above the cap"],
      [forged.toHex(), "is not the HTLC redeemer's"],
      [oneInput.toHex(), "leaves funding outputs of the HTLC unspent"],
      ["00", "is not a Bitcoin transaction"],
    ];
    for (const [partial, message] of cases) {
      const answer = await instantRefund(env, order.order_id, partial);
      expect(answer.status, message).toBe(400);
      expect(answer.body.error).toContain(message);
    }
    expect((await getOrder(env, order.order_id)).source_swap.instant_refund_tx).toBeUndefined();
  });

  it("needs a source owner to refund to, and a Bitcoin source", async () => {
    const order = await fundedSource(null, [90_000n]);
    const partial = await solverHalf(order, env.user.address);
    const answer = await instantRefund(env, order.order_id, partial);
    expect(answer.status).toBe(409);
    expect(answer.body.error).toContain("no source owner address");

    const evmSource = await createOrder(env, {
      source: { asset: `${env.evm.name}:usdc`, owner: evmUser, amount: "90000" },
      destination: { asset: BTC, owner: env.user.address, amount: "90000" },
    });
    const onEvm = await instantRefund(env, evmSource.order_id, partial);
    expect(onEvm.status).toBe(409);
    expect(onEvm.body.error).toContain("Bitcoin sources only");
  });
});

describe("refund action on a Bitcoin source", () => {
  it("refuses before the lock passes, then pays the refund address", async () => {
    const order = await fundedSource(null, [70_000n]);
    const fundedAt = Number(order.source_swap.initiate_block_number);
    const early = await refund(env, order.order_id, env.user.address);
    expect(early.status).toBe(409);
    expect(early.body.error).toContain(`can be refunded from block ${fundedAt + SOURCE_TIMELOCK}`);

    await env.mine(fundedAt + SOURCE_TIMELOCK - (await env.tip()));
    for (const bad of ["not-an-address", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", evmUser]) {
      const answer = await refund(env, order.order_id, bad);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.error).toContain("is not a valid bitcoin_regtest address");
    }
    const to = otherAddress();
    const answer = await refund(env, order.order_id, to);
    expect(answer.status).toBe(200);
    const txid = answer.body.result as string;
    await env.mine(1);
    const refunded = await waitForOrder(env, order.order_id, (o) => o.status === "Refunded", "was refunded");
    expect(refunded.source_swap.refund_tx_hash).toBe(txid);
    const received = await env.solverWallet.outputsOf(to);
    expect(received).toHaveLength(1);
    expect(received[0]!.value).toBeGreaterThan(69_000n);
    expect(received[0]!.value).toBeLessThan(70_000n);

    const again = await refund(env, order.order_id, to);
    expect(again.status).toBe(409);
  });

  it("refuses an unfunded source and an EVM source", async () => {
    const unfunded = await createOrder(env, {
      source: { asset: BTC, amount: "50000" },
      destination: { asset: `${env.evm.name}:usdc`, owner: evmUser, amount: "50000" },
    });
    const answer = await refund(env, unfunded.order_id, env.user.address);
    expect(answer.status).toBe(409);
    expect(answer.body.error).toContain("is not funded");

    const evmSource = await createOrder(env, {
      source: { asset: `${env.evm.name}:usdc`, owner: evmUser, amount: "50000" },
      destination: { asset: BTC, owner: env.user.address, amount: "50000" },
    });
    const onEvm = await refund(env, evmSource.order_id, env.user.address);
    expect(onEvm.status).toBe(409);
  });
});
