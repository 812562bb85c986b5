/**
 * A chain whose head stops moving is not counted from. On a real local chain of each family, with the
 * chain's `maxHeadAgeMs` set to 2 s: the reader's tip is taken while the head block is recent, refused
 * with an error naming the endpoint and the head's age once the chain has made no block for longer, and
 * taken again after the next block. (A node stuck while the chain goes on looks the same to the solver.)
 */
import { Keypair } from "@solana/web3.js";
import { networks } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEther } from "viem";
import { createBitcoinBackend } from "../../../../src/chains/bitcoin/family.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import { BitcoinReader } from "../../../../src/chains/bitcoin/reader.js";
import type { ChainReader } from "../../../../src/chains/chain.js";
import { createEvmFamily } from "../../../../src/chains/evm/index.js";
import { base58Encode } from "../../../../src/chains/solana/base58.js";
import { createSolanaFamily } from "../../../../src/chains/solana/family.js";
import { startAnvil, type AnvilInstance } from "@htlc-solver/localnet/families/evm/anvil.js";
import { startLocalSolana, type LocalSolana } from "@htlc-solver/localnet/families/solana/chain/index.js";
import { startBitcoinForTests, type BitcoinTestNode } from "../../../support/bitcoin-node.js";
import { MemoryJournal } from "../../../support/memory-journal.js";
import { MemoryFollowPositions } from "../../../../src/chains/follow-positions.js";
import type { BitcoinChainConfig } from "../../../../src/chains/bitcoin/config.js";
import type { EvmChainConfig } from "../../../../src/chains/evm/config.js";
import type { SolanaChainConfig } from "../../../../src/chains/solana/config.js";

const MAX_HEAD_AGE_MS = 2_000;
/** Long enough for a head block made just before to be older than the allowance (times are whole seconds). */
const IDLE_MS = MAX_HEAD_AGE_MS + 1_500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The endpoint as errors name it: `<host:port> answered with a stale head`. */
const staleAt = (url: string) =>
  new RegExp(`${new URL(url).host.replace(/\./g, "\\.")}/? answered with a stale head`);
const timing = { minBlockTimeMs: 400, maxBlockTimeMs: 1_000, maxHeadAgeMs: MAX_HEAD_AGE_MS };
const settings = { minConfirmations: 1, finalityDepth: 1, fillTimelockBlocks: 10, bumpAfterMs: 60_000 };

let anvil: AnvilInstance;
let bitcoin: BitcoinTestNode;
let solana: LocalSolana;

beforeAll(async () => {
  [anvil, bitcoin, solana] = await Promise.all([
    startAnvil({ chainId: 31_470 }),
    startBitcoinForTests(),
    startLocalSolana({ slotMs: 0 }),
  ]);
});

afterAll(async () => {
  await Promise.all([anvil?.stop(), bitcoin?.stop(), solana?.stop()]);
});

/**
 * The tip is taken now, refused after the chain idled (`idle`, by default long enough for a block made
 * now), and taken again once `makeBlock` made one.
 */
async function expectStaleWhileIdle(
  reader: ChainReader,
  makeBlock: () => Promise<void>,
  endpoint: RegExp,
  idle: () => Promise<unknown> = () => sleep(IDLE_MS),
) {
  await makeBlock();
  const before = await reader.tipHeight();
  await idle();
  const error = await reader.tipHeight().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(Error);
  const message = (error as Error).message;
  expect(message).toMatch(endpoint);
  expect(message).toMatch(
    /answered with a stale head: head \d+ is from .*, \d+ s ago; at most 2 s is taken as current/,
  );
  await makeBlock();
  expect(await reader.tipHeight()).toBeGreaterThan(before);
}

describe("a stale chain head", () => {
  it("on an EVM chain: the latest block's timestamp", async () => {
    const config: EvmChainConfig = {
      family: "evm",
      name: "anvil",
      chainId: 31_470,
      rpcUrls: [anvil.rpcUrl],
      ...timing,
      ...settings,
      maxFeePerGasWei: parseEther("0.0001"),
      maxHeadLagBlocks: 3,
      rpcTimeoutMs: 2_000,
      assets: [],
    };
    const { reader } = createEvmFamily({
      config,
      privateKey: `0x${"11".repeat(32)}`,
      journal: new MemoryJournal(),
    });
    const mine = async () => {
      await fetch(anvil.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] }),
      });
    };
    await expectStaleWhileIdle(reader, mine, staleAt(anvil.rpcUrl));
  });

  it("on Bitcoin: the tip's median time past", async () => {
    const config: BitcoinChainConfig = {
      family: "bitcoin",
      name: "bitcoin_regtest",
      network: "regtest",
      backend: "bitcoind",
      rpcUrls: [bitcoin.rpcUrl],
      rpcUser: bitcoin.rpcUser,
      rpcPassword: bitcoin.rpcPassword,
      esploraUrls: [],
      ...timing,
      ...settings,
      maxHeadLagBlocks: 1,
      rpcTimeoutMs: 2_000,
      feeRateFloorSatVb: 1,
      feeRateCeilingSatVb: 50,
      maxBatch: 10,
      assets: [],
    };
    const reader = new BitcoinReader({
      chain: config.name,
      network: "regtest",
      backend: createBitcoinBackend(config),
      feeRateCeilingSatVb: 50,
    });
    const address = BitcoinKey.random().walletPayment(networks.regtest).address;
    // Eleven blocks: the median of the last eleven block times is then one of them.
    const mine = async () => void (await bitcoin.rpc.call("generatetoaddress", [11, address]));
    // Blocks mined in one second take a second each above the median, which then runs ahead of the clock.
    const idle = async () => {
      const { mediantime } = await bitcoin.rpc.getBlockchainInfo();
      await sleep(mediantime * 1000 + IDLE_MS - Date.now());
    };
    await expectStaleWhileIdle(reader, mine, staleAt(bitcoin.rpcUrl), idle);
  });

  it("on Solana: the block time of the slot", async () => {
    const config: SolanaChainConfig = {
      family: "solana",
      name: "solana_localnet",
      chainId: 103,
      rpcUrls: [solana.url],
      nativeProgramId: solana.programIds.native.toBase58(),
      splProgramId: solana.programIds.spl.toBase58(),
      programVersion: "current",
      commitment: "confirmed",
      ...timing,
      ...settings,
      maxHeadLagBlocks: 75,
      rpcTimeoutMs: 2_000,
      computeUnitPriceFloorMicroLamports: 0n,
      computeUnitPriceCeilingMicroLamports: 1_000_000n,
      assets: [],
    };
    const { reader } = createSolanaFamily({
      config,
      secretKey: base58Encode(Keypair.generate().secretKey),
      journal: new MemoryJournal(),
      positions: new MemoryFollowPositions(),
    });
    // The confirmed slot is one behind the newest: two slots make the confirmed one new.
    const advance = async () => solana.advanceSlots(2n);
    await expectStaleWhileIdle(reader, advance, staleAt(solana.url));
  });
});
