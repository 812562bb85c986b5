import { Transaction } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IncompleteInstantRefundError } from "../../../../src/chains/bitcoin/errors.js";
import { completeInstantRefund } from "../../../../src/chains/bitcoin/htlc-spend.js";
import {
  htlcParams,
  newSecret,
  spendAction,
  startBitcoinEnv,
  userFunds,
  type BitcoinEnv,
} from "./support.js";

let env: BitcoinEnv;

beforeAll(async () => {
  env = await startBitcoinEnv();
});

afterAll(async () => {
  await env?.stop();
});

describe("Bitcoin instant refund of a declined source", () => {
  it("confirms once the initiator adds its signature to the solver's", async () => {
    const { secretHash } = newSecret();
    const params = htlcParams(env.user.key, env.solverKey, secretHash, 90_000n, 144n);
    const htlc = env.executor.reader.htlcOf(params);
    await userFunds(env, [{ script: htlc.outputScript, value: 50_000n }]);
    await env.mine(1);
    await userFunds(env, [{ script: htlc.outputScript, value: 40_000n }]);
    await env.mine(1);

    const partial = await env.executor.build([await spendAction(env, "instant_refund", params)]);
    expect(partial.terms).toMatchObject({
      family: "bitcoin",
      instantRefund: { redeemerSignatures: expect.any(Array) },
    });
    await expect(env.executor.broadcast(partial)).rejects.toThrow(IncompleteInstantRefundError);

    const inputs = Transaction.fromHex(partial.raw).ins;
    const { outputs } = await env.executor.reader.fundingOutputs(params);
    const values = inputs.map((input) => {
      const txid = Buffer.from(input.hash).reverse().toString("hex");
      return outputs.find((o) => o.txid === txid && o.vout === input.index)!.value;
    });
    const full = completeInstantRefund(partial.raw, htlc, values, { key: env.user.key });
    expect(Transaction.fromHex(full).getId()).toBe(partial.txHash);
    await env.rpc.sendRawTransaction(full);
    await env.mine(1);
    expect(await env.executor.txStatus({ ...env.journal.record(partial) }, [])).toMatchObject({
      state: "confirmed",
    });

    const state = await env.executor.reader.readHtlc(params);
    expect(state.secret).toBeNull();
    expect(state.locks.map((l) => [l.value, l.spend?.kind])).toEqual([
      [50_000n, "instant_refund"],
      [40_000n, "instant_refund"],
    ]);
    // Refunds go to the initiator key's own key-path address unless another address is given.
    const paid = Transaction.fromHex(full).outs;
    const userScript = env.user.key.walletPayment(htlc.network).output;
    expect(paid.every((o) => Buffer.from(o.script).equals(Buffer.from(userScript)))).toBe(true);
  });

  it("fails on chain without the initiator's signature", async () => {
    const { secretHash } = newSecret();
    const params = htlcParams(env.user.key, env.solverKey, secretHash, 30_000n, 144n);
    const htlc = env.executor.reader.htlcOf(params);
    await userFunds(env, [{ script: htlc.outputScript, value: 30_000n }]);
    await env.mine(1);
    const signed = await env.executor.signInstantRefund(await spendAction(env, "instant_refund", params));
    // The solver signing twice (as if it were the initiator) must not pass the initiator's CHECKSIG.
    const forged = completeInstantRefund(signed.partialTxHex, htlc, [30_000n], { key: env.solverKey });
    await expect(env.rpc.sendRawTransaction(forged)).rejects.toThrow(
      /Invalid Schnorr signature|script-verify/,
    );
  });
});
