/**
 * The Bitcoin watcher of the local service: a source funded by two outputs in two transactions shows
 * as a `txid:height` list (height 0 while unconfirmed), with the first confirmed height, the sum, the
 * confirmations and the block time; a redeem shows from the mempool on, with the secret, and gets its
 * block once mined.
 */
import { address as btcAddress, networks } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hexToBytes } from "htlc-solver/chains/bitcoin/bytes.js";
import { buildRedeemTx } from "htlc-solver/chains/bitcoin/htlc-spend.js";
import { sourceHtlc } from "../../../src/families/bitcoin/user-bitcoin.js";
import type { OrderPage } from "htlc-solver/orderbook/types.js";
import { anvilAccount } from "../../../../../test/support/evm-accounts.js";
import {
  BTC,
  createOrder,
  newSecret,
  startBitcoinServiceEnv,
  waitForOrder,
  type BitcoinServiceEnv,
} from "./bitcoin-support.js";
import { ROLES } from "./support/chains.js";
import { ok } from "./support/service.js";

let env: BitcoinServiceEnv;

beforeAll(async () => {
  env = await startBitcoinServiceEnv({ evmChainId: 31_412, requiredConfirmations: 2 });
});

afterAll(async () => {
  await env?.stop();
});

describe("Bitcoin watcher of the local service", () => {
  it("follows a two-output funding and the solver's redeem that reveals the secret", async () => {
    const { secret, secretHash } = newSecret();
    const order = await createOrder(env, {
      source: { asset: BTC, owner: env.user.address, amount: "500000" },
      destination: {
        asset: `${env.evm.name}:usdc`,
        owner: anvilAccount(ROLES.user).address,
        amount: "500000",
      },
      secret_hash: secretHash,
    });
    const id = order.order_id;
    const deposit = order.source_swap.swap_id;

    const first = await env.user.pay([{ address: deposit, value: 200_000n }]);
    const firstHeight = await env.mine(1);
    const partial = await waitForOrder(
      env,
      id,
      (o) => o.source_swap.initiate_tx_hash === `${first}:${firstHeight}`,
      "showed the first funding",
    );
    expect(partial.status).toBe("InitiateDetected");
    expect(partial.source_swap).toMatchObject({
      filled_amount: "200000",
      initiate_block_number: String(firstHeight),
      current_confirmations: 1,
    });
    const header = await env.rpc.getBlockHeader(await env.rpc.getBlockHash(firstHeight));
    expect(partial.source_swap.initiate_timestamp).toBe(new Date(header.time * 1000).toISOString());

    const second = await env.user.pay([{ address: deposit, value: 300_000n }]);
    const pending = await waitForOrder(
      env,
      id,
      (o) => o.source_swap.initiate_tx_hash.includes(second),
      "showed the second funding",
    );
    expect(pending.source_swap.initiate_tx_hash).toBe(`${first}:${firstHeight},${second}:0`);
    expect(pending.source_swap.filled_amount).toBe("500000");
    // The full amount is there, but half of it could still vanish from the mempool.
    expect(pending.status).toBe("InitiateDetected");

    const secondHeight = await env.mine(1);
    const initiated = await waitForOrder(env, id, (o) => o.status === "Initiated", "became Initiated");
    expect(initiated.source_swap).toMatchObject({
      initiate_tx_hash: `${first}:${firstHeight},${second}:${secondHeight}`,
      initiate_block_number: String(firstHeight),
      filled_amount: "500000",
      current_confirmations: 2,
    });
    const byTx = await ok<OrderPage>(env.service, "GET", `/v2/orders?tx_hash=${second}`);
    expect(byTx.data.map((o) => o.order_id)).toEqual([id]);

    // The solver redeems both outputs in one transaction with the secret.
    const htlc = sourceHtlc(initiated.source_swap, "regtest");
    const outputs = await env.solverWallet.outputsOf(deposit);
    const inputs = outputs.map((o) => ({
      htlc,
      txid: o.txid,
      vout: o.vout,
      value: o.value,
      secret: hexToBytes(secret),
    }));
    const payTo = btcAddress.toOutputScript(env.solverWallet.address, networks.regtest);
    const { tx } = buildRedeemTx(inputs, env.solverKey, payTo, 2n);
    const redeemTxid = await env.solverWallet.broadcast(tx.toHex());
    const seen = await waitForOrder(env, id, (o) => o.source_swap.redeem_tx_hash !== "", "showed the redeem");
    expect(seen.source_swap).toMatchObject({
      redeem_tx_hash: redeemTxid,
      redeem_block_number: "0",
      redeem_timestamp: null,
      secret,
    });
    const redeemHeight = await env.mine(1);
    const mined = await waitForOrder(
      env,
      id,
      (o) => o.source_swap.redeem_block_number !== "0",
      "showed the redeem's block",
    );
    expect(mined.source_swap.redeem_block_number).toBe(String(redeemHeight));
    expect(mined.source_swap.redeem_timestamp).not.toBeNull();
    expect(mined.source_swap.refund_tx_hash).toBe("");
  });
});
