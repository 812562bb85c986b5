/**
 * A Bitcoin deposit that a reorganisation takes back, on the local regtest node with blocks mined only on
 * demand, so the test decides what the solver has seen when the chain changes under it. The operator asks
 * for two confirmations (the service asks for one). The attacker pays the deposit, lets the solver see it
 * in a block, then replaces that block with a longer branch in which the same coins go back to themselves:
 * a solver that judged the order on its view of the old branch would count two confirmations of a deposit
 * that no longer exists and fill it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { networks } from "bitcoinjs-lib";
import { BitcoinKey } from "../../../src/chains/bitcoin/keys.js";
import { sourceHtlc } from "@htlc-solver/localnet/families/bitcoin/user-bitcoin.js";
import type { LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { FaultProxy } from "../../support/fault-proxy.js";
import { waitFor } from "../../support/localnet.js";
import {
  journaled,
  lastReason,
  solverHolds,
  solverRounds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../../attacks/support/attack-net.js";

const BTC = "bitcoin_regtest:btc";
const USDC = "arbitrum_localnet:usdc";
const AMOUNT = 1_000_000n;
/** Fee rate of the attacker's replacement: above the deposit's, so the node takes it in its place. */
const REPLACEMENT_FEE_RATE = 20n;

let t: AttackNet;
/** Between the solver and the Bitcoin node: answers at once until a test slows its block reads. */
let solverNode: FaultProxy | undefined;

interface Attack {
  attacker: LocalUser;
  order: Order;
  depositTxid: string;
  minedAt: number;
  before: Holdings;
}

interface Holdings {
  solverUsdc: bigint;
  solverBtc: bigint;
  attackerUsdc: bigint;
  attackerBtc: bigint;
}

async function holdings(attacker: LocalUser): Promise<Holdings> {
  return {
    solverUsdc: await solverHolds(t, USDC),
    solverBtc: await solverHolds(t, BTC),
    attackerUsdc: await attacker.balance(USDC),
    attackerBtc: await attacker.bitcoin.balance(),
  };
}

/** The attacker pays the deposit and it is mined; the service counts it confirmed, the solver waits. */
async function depositSeenInABlock(attacker: LocalUser): Promise<Attack> {
  const quote = await attacker.bestQuote(BTC, USDC, AMOUNT);
  const order = await attacker.createOrder(quote);
  const before = await holdings(attacker);
  const [depositTxid] = await attacker.fundBitcoinSource(order);
  const minedAt = await t.net.bitcoin.mine(1);
  await attacker.waitForOrder(order.order_id, (o) => o.source_swap.current_confirmations >= 1);
  await solverRounds(t, 3);
  expect(journaled(t, order)).toEqual([]);
  expect(lastReason(t, order)).toBe("source_unconfirmed");
  return { attacker, order, depositTxid: depositTxid!, minedAt, before };
}

/** The deposit's block goes; in the branch that replaces it, one block longer, the coins are paid back. */
async function reorganiseAway({ attacker, order, depositTxid, minedAt }: Attack): Promise<void> {
  const { rpc } = t.net.bitcoin;
  await rpc.invalidateBlock(await rpc.getBlockHash(minedAt));
  const back = await attacker.bitcoin.cancel(depositTxid, REPLACEMENT_FEE_RATE);
  await rpc.generateToAddress(2, BitcoinKey.random().walletPayment(networks.regtest).address);
  expect(await rpc.getBlockCount()).toBe(minedAt + 1);
  expect((await rpc.getRawTransactionVerbose(back)).blockhash).toBeDefined();
  const deposit = sourceHtlc(order.source_swap, "regtest").address;
  expect((await rpc.scanTxOutSet([deposit])).unspents).toEqual([]);
}

/** The solver sees no deposit, filled nothing, and every balance is as before but the attacker's fees. */
async function expectNothingLost({ attacker, order, before }: Attack): Promise<void> {
  await waitFor(
    () => lastReason(t, order) === "source_not_initiated" || journaled(t, order).length > 0,
    "the solver to see no deposit (or to act)",
  );
  await solverRounds(t, 4);
  expect(journaled(t, order)).toEqual([]);
  expect(lastReason(t, order)).toBe("source_not_initiated");
  const after = await holdings(attacker);
  expect(after.solverUsdc).toBe(before.solverUsdc);
  expect(after.solverBtc).toBe(before.solverBtc);
  expect(after.attackerUsdc).toBe(before.attackerUsdc);
  // The attacker has their coins back, less the deposit's and the replacement's fees.
  expect(after.attackerBtc).toBeLessThan(before.attackerBtc);
  expect(after.attackerBtc).toBeGreaterThan(before.attackerBtc - 20_000n);
}

/** How many tips the solver's node has answered so far. */
const tipsAnswered = (): number => solverNode!.counts()["getblockcount"]?.forwarded ?? 0;

/** Starts the net before the tests of the describe this is called in, and stops it after. */
function useNet(): void {
  beforeAll(async () => {
    t = await startAttackNet({ bitcoinBlockTimeMs: 0 }, async (config) => {
      const chains = await Promise.all(
        config.chains.map(async (chain) => {
          if (chain.family !== "bitcoin") return chain;
          solverNode = new FaultProxy(chain.rpcUrls[0]!);
          await solverNode.start();
          return { ...chain, rpcUrls: [solverNode.url], minConfirmations: 2 };
        }),
      );
      return { ...config, chains };
    });
  });
  afterAll(async () => {
    await stopAttackNet(t);
    await solverNode?.stop();
  });
}

/** A Bitcoin deposit seen in a block, then reorganised away and spent back. */
export function bitcoinDepositReorganisedAway(): void {
  useNet();
  describe("attack: a deposit seen in a block, then reorganised away and spent back to the attacker", () => {
    it("is never filled: confirmations are counted on the branch the node holds; both sides keep their funds", async () => {
      const attack = await depositSeenInABlock(t.user(0));
      await reorganiseAway(attack);
      await expectNothingLost(attack);
    });

    it(
      "is never filled while the solver's node answers the new tip at once but its blocks slowly",
      { timeout: 180_000 },
      async () => {
        const attack = await depositSeenInABlock(t.user(1));
        // The index's view still holds the old branch while the new, taller tip is already answered: a
        // count of that tip against that view gives the vanished deposit its two confirmations.
        solverNode!.configure({ methods: ["getblockhash", "getblock"], delayMs: 3_000 });
        await reorganiseAway(attack);
        const tipsBefore = tipsAnswered();
        // A few rounds on the new tip; each waits on the slow blocks, so a loaded machine needs the time.
        await waitFor(() => tipsAnswered() >= tipsBefore + 3, "the solver to read the new tip", 90_000);
        expect(journaled(t, attack.order)).toEqual([]);
        solverNode!.configure({ methods: null, delayMs: 0 });
        await expectNothingLost(attack);
      },
    );
  });
}
