/**
 * The local service's Starknet chain against the local Starknet chain alone: swap ids the HTLC accepts,
 * the watcher's facts (initiate, the secret of a redeem, a refund), the create-order answer's typed data
 * and call, initiation by a verified signature, and the service redeem paid by the relayer.
 */
import { createHash, randomBytes } from "node:crypto";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feltHex } from "htlc-solver/chains/starknet/felt.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import { makeOrder } from "../../../../../../test/support/order-fixture.js";
import { RelayRejectedError } from "../../../../src/service/chains/relay-error.js";
import type { ResolvedAsset } from "../../../../src/service/registry.js";
import type { LocalServiceStarknetChainConfig } from "../../../../src/families/starknet/service/starknet-config.js";
import { StarknetServiceChain } from "../../../../src/families/starknet/service/starknet-service-chain.js";
import {
  starknetChainDescriptor,
  type LocalStarknetChainPlan,
} from "../../../../src/families/starknet/starknet-descriptor.js";
import { serviceStarknetChain } from "../../../../src/families/starknet/starknet-localnet.js";
import {
  setUpStarknetChain,
  type LocalStarknetChainSetup,
} from "../../../../src/families/starknet/starknet-setup.js";
import { StarknetUserWallet } from "../../../../src/families/starknet/user-starknet.js";

const WBTC = "starknet_localnet:wbtc";

describe("the local service's Starknet chain", () => {
  let setup: LocalStarknetChainSetup;
  let config: LocalServiceStarknetChainConfig;
  let chain: StarknetServiceChain;
  let user: StarknetUserWallet;
  let other: StarknetUserWallet;

  beforeAll(async () => {
    // Blocks only on demand, so each step's block is made by the test.
    setup = await setUpStarknetChain({
      userLabels: ["user 0", "user 1"],
      blockMs: 0,
      logger: pino({ level: "silent" }),
    });
    const plan: LocalStarknetChainPlan = {
      name: setup.name,
      chainId: setup.chainId,
      rpcUrl: setup.rpcUrl,
      orderIdLayout: "deployed",
      feeTokenAddress: setup.strk,
      wbtc: setup.wbtc,
      htlc: setup.htlcs.deployed,
      strkHtlc: setup.strkHtlcs.deployed,
      sourceTimelock: 7200,
      destinationTimelock: 600,
    };
    config = serviceStarknetChain(plan, setup);
    chain = new StarknetServiceChain(config);
    const descriptor = starknetChainDescriptor(plan);
    user = new StarknetUserWallet(setup.users[0]!, descriptor);
    other = new StarknetUserWallet(setup.users[1]!, descriptor);
  });
  afterAll(async () => {
    await chain?.close();
    await setup?.stop();
  });

  /** A block every 50 ms while `action` runs (the user's sends wait for theirs). */
  async function withBlocks<T>(action: () => Promise<T>): Promise<T> {
    const timer = setInterval(() => setup.local.mineBlock(), 50);
    try {
      return await action();
    } finally {
      clearInterval(timer);
    }
  }

  function newSwap(overrides: Partial<SwapRecord> = {}): { swap: SwapRecord; secret: string } {
    const secret = randomBytes(32).toString("hex");
    const secretHash = createHash("sha256").update(Buffer.from(secret, "hex")).digest("hex");
    const base = makeOrder().source_swap;
    const terms = {
      ...base,
      chain: setup.name,
      asset: WBTC,
      initiator: user.address,
      redeemer: setup.solver.address,
      timelock: 20,
      amount: "150000",
      secret_hash: secretHash,
      ...overrides,
    };
    const asset = {
      id: WBTC,
      family: "starknet",
      native: false,
      chain: config,
      config: config.assets[0]!,
    } as ResolvedAsset;
    const swapId = chain.swapId({
      side: "source",
      asset,
      initiator: terms.initiator,
      redeemer: terms.redeemer,
      delegate: null,
      timelock: terms.timelock,
      amount: BigInt(terms.amount),
      secretHash,
    });
    return { swap: { ...terms, swap_id: swapId }, secret };
  }

  it("prints addresses as 0x and 64 hex and takes any felt spelling as the same address", () => {
    const padded = setup.solver.address;
    const short = feltHex(BigInt(padded));
    expect(chain.normalizeAddress(short)).toBe(padded);
    expect(chain.addressKey(short.toUpperCase().replace("0X", "0x"))).toBe(chain.addressKey(padded));
    expect(chain.isValidAddress("0x0")).toBe(false);
    expect(chain.isValidAddress("0x" + "f".repeat(64))).toBe(false);
    expect(chain.solverParty("not an address")).toBeNull();
  });

  it("watches an initiate the HTLC accepted under the swap id the service computes, then the user's refund", async () => {
    const { swap } = newSwap();
    expect(swap.swap_id).toMatch(/^[1-9a-f][0-9a-f]*$/);
    const from = await chain.watcher.tipHeight();
    expect(await chain.isInitiated(swap)).toBe(false);
    const initiateTx = await withBlocks(() => user.initiate(swap));
    expect(await chain.isInitiated(swap)).toBe(true);
    const tip = await chain.watcher.tipHeight();
    const facts = await chain.watcher.observe(swap, from, tip);
    expect(facts.onChain).toEqual({
      initiator: user.address,
      redeemer: setup.solver.address,
      timelock: 20n,
      amount: 150_000n,
    });
    expect(facts.initiate).toMatchObject({ txHash: initiateTx, filledAmount: 150_000n });
    expect(facts.redeem).toBeUndefined();

    const initiated = {
      ...swap,
      initiate_tx_hash: initiateTx,
      initiate_block_number: String(facts.initiate!.blockNumber),
    };
    setup.local.mineBlock(21);
    const refundTx = await withBlocks(() => user.refund(swap));
    const after = await chain.watcher.observe(initiated, from, await chain.watcher.tipHeight());
    expect(after.refund).toMatchObject({ txHash: refundTx });
    expect(after.redeem).toBeUndefined();
  });

  it("redeems with the held secret from the relayer account, and reads the secret back from Redeemed", async () => {
    const { swap, secret } = newSwap({ initiator: user.address, redeemer: other.address });
    const from = await chain.watcher.tipHeight();
    await withBlocks(() => user.initiate(swap));
    const otherWbtc = await other.balance(WBTC);
    const otherStrk = await other.tokenBalance(setup.strk);

    const wrong = randomBytes(32).toString("hex");
    await expect(chain.redeem(swap, wrong)).rejects.toThrow(RelayRejectedError);
    await expect(chain.redeem(swap, wrong)).rejects.toThrow("HTLC: incorrect secret");

    const redeemTx = await chain.redeem(swap, secret);
    expect(await chain.txOutcome(redeemTx)).toBe("pending");
    setup.local.mineBlock();
    expect(await chain.txOutcome(redeemTx)).toBe("success");
    const facts = await chain.watcher.observe(swap, from, await chain.watcher.tipHeight());
    expect(facts.redeem).toMatchObject({ txHash: redeemTx, secret });
    // The redeemer got the amount and paid nothing: the relayer paid the fee.
    expect((await other.balance(WBTC)) - otherWbtc).toBe(150_000n);
    expect(await other.tokenBalance(setup.strk)).toBe(otherStrk);
    expect(await chain.txOutcome(feltHex(12345n))).toBe("dropped");
  });

  it("offers the published typed data and call, checks the initiator's signature and relays the initiate", async () => {
    const { swap } = newSwap();
    const typed = (await chain.signedInitiate.typedData(swap)) as {
      domain: unknown;
      primaryType: string;
      message: Record<string, unknown>;
    };
    expect(typed.domain).toEqual({ name: "HTLC", version: "1", chainId: "SN_LOCALNET", revision: "1" });
    expect(typed.primaryType).toBe("Initiate");
    expect(typed.message.redeemer).toBe(BigInt(setup.solver.address).toString());
    const transaction = chain.signedInitiate.transaction(swap);
    expect(transaction.to).toBe(feltHex(BigInt(setup.htlcs.deployed)));
    expect(transaction.calldata.slice(0, 4)).toEqual([
      feltHex(BigInt(setup.solver.address)),
      "0x14",
      feltHex(150_000n),
      "0x0",
    ]);
    expect(transaction.calldata).toHaveLength(12);

    await withBlocks(() => user.approveSource(swap));
    const read = (value: unknown) => {
      const result = chain.signedInitiate.signatureOf(value);
      if ("problem" in result) throw new Error(result.problem);
      return result.signature;
    };
    expect(chain.signedInitiate.signatureOf("0xabc")).toHaveProperty("problem");
    expect(chain.signedInitiate.signatureOf(["0x1", "zz"])).toEqual({
      problem: "signature[1] is not a felt (0x-hex or decimal below the prime)",
    });
    // Another account's signature of the same message is not the initiator's.
    const forged = read(other.signInitiate({ ...swap, initiator: other.address }));
    expect(await chain.signedInitiate.verify(swap, forged)).toMatch(
      /not accepted by the source initiator's account/,
    );
    // A wallet may print the felts in decimal.
    const signature = read(user.signInitiate(swap).map((felt) => BigInt(felt).toString()));
    expect(await chain.signedInitiate.verify(swap, signature)).toBeNull();
    const userStrk = await user.tokenBalance(setup.strk);
    const txHash = await chain.signedInitiate.relay(swap, signature);
    setup.local.mineBlock();
    expect(await chain.txOutcome(txHash)).toBe("success");
    expect(await chain.isInitiated(swap)).toBe(true);
    expect(await user.tokenBalance(setup.strk)).toBe(userStrk);
    await expect(chain.signedInitiate.relay(swap, signature)).rejects.toThrow("HTLC: duplicate order");
  });
});
