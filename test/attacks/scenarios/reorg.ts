/**
 * Reorganisations that take the solver's source redeem out of its block before it is final: the solver
 * follows each of its transactions until the chain's finality depth, notices the block is gone, and the
 * redeem is mined again (anvil: `anvil_rollback`, the transaction is gone and is sent again; the Bitcoin
 * regtest node: `invalidateblock`, the transaction goes back to the mempool and is mined again).
 */
import { networks } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BitcoinKey } from "../../../src/chains/bitcoin/keys.js";
import { newUserSecret } from "@htlc-solver/localnet/user.js";
import { anvilCall, startTestLocalnet, waitFor, type TestLocalnet } from "../../support/localnet.js";

const SOURCE_CHAIN = "arbitrum_localnet";

/** A reorganisation that takes out the solver's redeem (anvil and Bitcoin). */
export function redeemReorganisedOut(family: "evm" | "bitcoin"): void {
  // Each family's tests run under that family; the net is shared by them.
  const itFor =
    (of: "evm" | "bitcoin") =>
    (title: string, fn: () => Promise<void>, timeout?: number): void => {
      if (of === family) it(title, fn, timeout);
    };
  describe("a reorganisation that takes out the solver's redeem", () => {
    let t: TestLocalnet;
    beforeAll(async () => {
      // Bitcoin blocks only on demand, so the test decides which block holds the redeem.
      t = await startTestLocalnet({ bitcoinBlockTimeMs: 0 });
    });
    afterAll(async () => {
      await t?.net.stop();
    });

    const journal = () => t.net.solver!.journal;
    const redeemOf = (orderId: string) =>
      journal()
        .orderActions(orderId)
        .find((a) => a.kind === "redeem");
    const redeemAttempts = (orderId: string) => {
      const redeem = redeemOf(orderId);
      return redeem === undefined ? [] : journal().attemptsOfAction(redeem.id);
    };
    const logged = (msg: string, txHash: string) =>
      t.log.lines.some((l) => l.msg === msg && l.txHash === txHash);

    itFor("evm")("on anvil: the rolled-back redeem is sent again and mined again", async () => {
      const rpc = t.net.anvils.get(SOURCE_CHAIN)!.rpcUrl;
      const user = t.user(0);
      const { secret, secretHash } = newUserSecret();
      const quote = await user.bestQuote(`${SOURCE_CHAIN}:usdc`, "ethereum_localnet:usdc", 100_000_000n);
      const order = await user.createOrder(quote, { secretHash });
      await user.initiateOnChain(order);
      await waitFor(
        () =>
          journal()
            .orderActions(order.order_id)
            .some((a) => a.kind === "fill" && a.status === "confirmed"),
        "the fill to be final",
      );

      await anvilCall(rpc, "evm_setIntervalMining", [0]);
      await user.redeemDestination(order, secret);
      await waitFor(() => redeemOf(order.order_id)?.status === "broadcast", "the source redeem to be sent");
      const [attempt] = redeemAttempts(order.order_id);
      await anvilCall(rpc, "anvil_mine", ["0x1"]);
      await waitFor(
        () => journal().attempt(attempt!.id).blockHeight !== null,
        "the solver to see its redeem mined",
      );
      expect(redeemOf(order.order_id)?.status).toBe("broadcast");

      await anvilCall(rpc, "anvil_rollback", [1]);
      await waitFor(
        () => logged("transaction reorganised out of its block", attempt!.txHash),
        "the reorg noticed",
      );
      await waitFor(
        () => logged("re-broadcast the journaled transaction", attempt!.txHash),
        "the redeem sent again",
      );
      await anvilCall(rpc, "evm_setIntervalMining", [1]);
      await waitFor(() => redeemOf(order.order_id)?.status === "confirmed", "the redeem to be final");
      expect(journal().attempt(attempt!.id).state).toBe("confirmed");
      const done = await user.waitForOrder(order.order_id, (o) => o.source_swap.redeem_tx_hash !== "");
      expect(done.source_swap.redeem_tx_hash.replace(/^0x/, "")).toBe(attempt!.txHash.replace(/^0x/, ""));
    });

    itFor("bitcoin")(
      "on Bitcoin: the redeem whose block is invalidated is mined again, and only then final",
      async () => {
        const bitcoin = t.net.bitcoin;
        const user = t.user(1);
        const { secret, secretHash } = newUserSecret();
        const quote = await user.bestQuote("bitcoin_regtest:btc", "arbitrum_localnet:usdc", 1_000_000n);
        const order = await user.createOrder(quote, { secretHash });
        await user.fundBitcoinSource(order);
        await bitcoin.mine(1);
        await waitFor(
          () =>
            journal()
              .orderActions(order.order_id)
              .some((a) => a.kind === "fill" && a.status === "confirmed"),
          "the fill to be final",
        );
        await user.redeemDestination(order, secret);
        await waitFor(() => redeemOf(order.order_id)?.status === "broadcast", "the source redeem to be sent");
        const [attempt] = redeemAttempts(order.order_id);
        const minedAt = await bitcoin.mine(1);
        await waitFor(
          () => journal().attempt(attempt!.id).blockHeight === BigInt(minedAt),
          "the redeem seen mined",
        );

        await bitcoin.rpc.invalidateBlock(await bitcoin.rpc.getBlockHash(minedAt));
        await waitFor(
          () => logged("transaction reorganised out of its block", attempt!.txHash),
          "the reorg noticed",
        );
        expect(redeemOf(order.order_id)?.status).toBe("broadcast");
        // A longer branch, mined to another address (the invalidated block may not be rebuilt).
        await bitcoin.rpc.generateToAddress(2, BitcoinKey.random().walletPayment(networks.regtest).address);
        await waitFor(() => redeemOf(order.order_id)?.status === "confirmed", "the redeem to be final");
        expect(journal().attempt(attempt!.id)).toMatchObject({
          state: "confirmed",
          blockHeight: BigInt(minedAt),
        });
      },
    );
  });
}
