import { afterEach, describe, expect, it } from "vitest";
import { STARKNET_RPC_METHODS } from "../../../../src/families/starknet/chain/index.js";
import { starknetRpc } from "../../../../src/families/starknet/chain/local-account.js";
import { approveCall, fee, FIXED_BOUNDS, mined, rpcError, startSetup, type Setup } from "./helpers.js";

let setup: Setup | undefined;
afterEach(async () => {
  await setup?.sn.stop();
  setup = undefined;
});

interface Status {
  finality_status: string;
  execution_status?: string;
}

describe("blocks, finality and fees", () => {
  it("reports RECEIVED, then ACCEPTED_ON_L2, then ACCEPTED_ON_L1 after the configured depth", async () => {
    const s = (setup = await startSetup());
    const hash = await s.alice.account.send([approveCall(s.token, s.htlc, 1n)], {
      resourceBounds: FIXED_BOUNDS,
    });
    const status = () =>
      s.alice.account.rpc<Status>("starknet_getTransactionStatus", [`0x${hash.toString(16)}`]);
    expect(await status()).toEqual({ finality_status: "RECEIVED" });
    expect(
      (await rpcError(s.alice.account.rpc("starknet_getTransactionReceipt", [`0x${hash.toString(16)}`])))
        .code,
    ).toBe(29);
    s.sn.mineBlock();
    expect(await status()).toEqual({ finality_status: "ACCEPTED_ON_L2", execution_status: "SUCCEEDED" });
    const receipt = await s.alice.account.waitFor(hash);
    const block = await starknetRpc<{ status: string; transactions: string[] }>(
      s.sn.url,
      "starknet_getBlockWithTxHashes",
      {
        block_id: { block_number: receipt.block_number },
      },
    );
    expect(block.status).toBe("ACCEPTED_ON_L2");
    expect(block.transactions).toEqual([`0x${hash.toString(16)}`]);
    s.sn.mineBlock(2);
    expect((await status()).finality_status).toBe("ACCEPTED_ON_L2");
    s.sn.mineBlock();
    expect((await status()).finality_status).toBe("ACCEPTED_ON_L1");
    expect((await s.alice.account.waitFor(hash)).finality_status).toBe("ACCEPTED_ON_L1");
  });

  it("charges exactly the estimate at unchanged prices", async () => {
    const s = (setup = await startSetup());
    const calls = [approveCall(s.token, s.htlc, 5n)];
    const estimate = await s.alice.account.estimate(calls, 0n);
    const receipt = await mined(s.sn, s.alice, calls);
    expect(fee(receipt)).toBe(BigInt(estimate.overall_fee));
    expect(estimate.unit).toBe("FRI");
  });

  it("holds a transaction while the block's prices exceed its bounds, then includes it at the new prices", async () => {
    const s = (setup = await startSetup());
    const base = s.sn.chain.gasPrices.l2;
    s.sn.setGasPrices({ l2: FIXED_BOUNDS.l2Gas.maxPricePerUnit + 1n });
    const hash = await s.alice.account.send([approveCall(s.token, s.htlc, 1n)], {
      resourceBounds: FIXED_BOUNDS,
    });
    s.sn.mineBlock(3);
    const status = () =>
      s.alice.account.rpc<Status>("starknet_getTransactionStatus", [`0x${hash.toString(16)}`]);
    expect(await status()).toEqual({ finality_status: "RECEIVED" });
    const strk = s.sn.balanceOf(s.sn.feeToken, s.alice.address);
    s.sn.setGasPrices({ l2: base + 1n });
    s.sn.mineBlock();
    const receipt = await s.alice.account.waitFor(hash);
    expect(receipt.execution_status).toBe("SUCCEEDED");
    expect(s.sn.balanceOf(s.sn.feeToken, s.alice.address)).toBe(strk - fee(receipt));
    const block = await starknetRpc<{ l2_gas_price: { price_in_fri: string } }>(
      s.sn.url,
      "starknet_getBlockWithTxHashes",
      [{ block_number: receipt.block_number }],
    );
    expect(BigInt(block.l2_gas_price.price_in_fri)).toBe(base + 1n);
  });

  it("replaces a waiting transaction only with tip and l2 max price each 10% higher (else 59)", async () => {
    const s = (setup = await startSetup());
    s.sn.setGasPrices({ l2: FIXED_BOUNDS.l2Gas.maxPricePerUnit * 10n });
    const calls = [approveCall(s.token, s.htlc, 1n)];
    const first = await s.alice.account.send(calls, { resourceBounds: FIXED_BOUNDS, tip: 100n });
    const slightly = {
      ...FIXED_BOUNDS,
      l2Gas: { ...FIXED_BOUNDS.l2Gas, maxPricePerUnit: (FIXED_BOUNDS.l2Gas.maxPricePerUnit * 109n) / 100n },
    };
    const underpriced = await rpcError(
      s.alice.account.send([approveCall(s.token, s.htlc, 2n)], {
        resourceBounds: slightly,
        tip: 200n,
        nonce: 0n,
      }),
    );
    expect(underpriced.code).toBe(59);
    const lowTip = {
      ...FIXED_BOUNDS,
      l2Gas: { ...FIXED_BOUNDS.l2Gas, maxPricePerUnit: FIXED_BOUNDS.l2Gas.maxPricePerUnit * 20n },
    };
    expect(
      (
        await rpcError(
          s.alice.account.send([approveCall(s.token, s.htlc, 2n)], {
            resourceBounds: lowTip,
            tip: 109n,
            nonce: 0n,
          }),
        )
      ).code,
    ).toBe(59);
    const second = await s.alice.account.send([approveCall(s.token, s.htlc, 2n)], {
      resourceBounds: lowTip,
      tip: 110n,
      nonce: 0n,
    });
    expect(
      (await rpcError(s.alice.account.rpc("starknet_getTransactionStatus", [`0x${first.toString(16)}`])))
        .code,
    ).toBe(29);
    s.sn.mineBlock();
    const receipt = await s.alice.account.waitFor(second);
    expect(receipt.execution_status).toBe("SUCCEEDED");
    const allowance = await s.alice.account.rpc<string[]>("starknet_call", {
      request: {
        contract_address: s.token,
        entry_point_selector: "0x1e888a1026b19c8c0b57c72d63ed1737106aa10034105b980ba117bd0c29fe1",
        calldata: [s.alice.address, s.htlc],
      },
      block_id: "latest",
    });
    expect(allowance).toEqual(["0x2", "0x0"]);
  });

  it("answers calls and nonces at older blocks from their own state", async () => {
    const s = (setup = await startSetup());
    const balanceAt = async (blockId: unknown) =>
      BigInt(
        (
          await s.alice.account.rpc<string[]>("starknet_call", [
            {
              contract_address: s.token,
              entry_point_selector: "0x35a73cd311a05d46deda634c5ee045db92f811b4e74bca4437fcb5302b7af33",
              calldata: [s.alice.address],
            },
            blockId,
          ])
        )[0] ?? "0x0",
      );
    s.sn.mineBlock();
    // Setup writes land in the newest block's state; the block before keeps its own.
    const before = s.sn.chain.latest().number;
    s.sn.mint(s.token, s.alice.address, 1_000n);
    const receipt = await mined(s.sn, s.alice, [
      { to: s.token, entrypoint: "transfer", calldata: [s.bob.address, 400n, 0n] },
    ]);
    expect(await balanceAt({ block_number: Number(before) - 1 })).toBe(0n);
    expect(await balanceAt({ block_number: Number(before) })).toBe(1_000n);
    expect(await balanceAt({ block_number: receipt.block_number })).toBe(600n);
    expect(await balanceAt({ block_hash: receipt.block_hash })).toBe(600n);
    const nonceAt = (blockId: unknown) =>
      s.alice.account.rpc<string>("starknet_getNonce", [blockId, s.alice.address]);
    expect(await nonceAt({ block_number: Number(before) })).toBe("0x0");
    expect(await nonceAt("latest")).toBe("0x1");
  });

  it("answers the spec's methods, batches, named params and error codes", async () => {
    const s = (setup = await startSetup());
    expect(STARKNET_RPC_METHODS).toEqual([
      "starknet_addInvokeTransaction",
      "starknet_blockHashAndNumber",
      "starknet_blockNumber",
      "starknet_call",
      "starknet_chainId",
      "starknet_estimateFee",
      "starknet_getBlockWithTxHashes",
      "starknet_getEvents",
      "starknet_getNonce",
      "starknet_getTransactionByHash",
      "starknet_getTransactionReceipt",
      "starknet_getTransactionStatus",
      "starknet_specVersion",
    ]);
    const response = await fetch(s.sn.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "starknet_specVersion" },
        { jsonrpc: "2.0", id: 2, method: "starknet_chainId", params: [] },
        {
          jsonrpc: "2.0",
          id: 3,
          method: "starknet_getNonce",
          params: { block_id: "latest", contract_address: s.alice.address },
        },
        { jsonrpc: "2.0", id: 4, method: "starknet_getBlockWithTxHashes", params: ["pre_confirmed"] },
        { jsonrpc: "2.0", id: 5, method: "starknet_getBlockWithTxHashes", params: [{ block_number: 99 }] },
        { jsonrpc: "2.0", id: 6, method: "starknet_getNonce", params: ["latest", "0x1234"] },
        {
          jsonrpc: "2.0",
          id: 7,
          method: "starknet_call",
          params: [{ contract_address: s.htlc, entry_point_selector: "0x1", calldata: [] }, "latest"],
        },
        { jsonrpc: "2.0", id: 8, method: "starknet_nope" },
      ]),
    });
    const replies = (await response.json()) as { id: number; result?: unknown; error?: { code: number } }[];
    expect(replies.map((r) => r.result ?? r.error?.code)).toEqual([
      "0.9.0",
      s.sn.chainId,
      "0x0",
      expect.objectContaining({ block_number: 1, transactions: [] }),
      24,
      20,
      40,
      -32601,
    ]);
    expect(s.sn.chainId).toBe("0x534e5f4c4f43414c4e4554");
  });
});
