/**
 * The local Starknet chain for tests and the localnet: contract models that verify what they accept (Stark
 * signatures, the multicall, nonces, HTLC order ids and secrets, token balances and allowances) behind a
 * Starknet JSON-RPC v0.9 server, blocks on an interval or on demand, and setup helpers that place accounts
 * and contracts and mint tokens without transactions.
 */
import { ec, hash } from "starknet";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { listen } from "htlc-solver/util/listen.js";
import { AccountModel } from "./account.js";
import { LocalStarknetChain } from "./chain.js";
import { Erc20Model } from "./erc20.js";
import { EventEmitterModel } from "./event-emitter.js";
import { feltHex, shortStringFelt } from "./felt.js";
import type { GasPrices } from "./fees.js";
import { HtlcModel } from "./htlc.js";
import { LOCAL_ACCOUNT_CLASS_HASH, LOCAL_ERC20_CLASS_HASH, LOCAL_HTLC_CLASS_HASH } from "./local-classes.js";
import type { OrderIdLayout } from "./order-id.js";
import type { World } from "./world.js";
import { createStarknetRpcServer } from "./rpc-server.js";
import { executeCalldata, signInvoke } from "./signed-invoke.js";

export { LocalStarknetChain } from "./chain.js";
export { STARKNET_RPC_METHODS } from "./rpc-server.js";
export { LOCAL_ACCOUNT_CLASS_HASH } from "./local-classes.js";
export type { OrderIdLayout } from "./order-id.js";

/** The fee token lives where STRK lives on the public networks. */
export const LOCAL_FEE_TOKEN = 0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938dn;
/** Receives the fees (the block's sequencer address). */
export const LOCAL_SEQUENCER = shortStringFelt("LOCAL_SEQUENCER");

export interface StartLocalStarknetOptions {
  /** TCP port on 127.0.0.1; a free one when omitted. */
  port?: number;
  /** Milliseconds per block (default 1000); 0 makes blocks only on demand. */
  blockMs?: number;
  /** The chain id short string (default "SN_LOCALNET"). */
  chainId?: string;
  /** Blocks after which a block is ACCEPTED_ON_L1 (default 10). */
  l1AcceptDepth?: number;
  logger?: Logger;
}

export interface LocalStarknetAccountKeys {
  address: string;
  privateKey: string;
  publicKey: string;
}

export interface LocalStarknet {
  url: string;
  /** The chain id as a felt hex (`starknet_chainId`). */
  chainId: string;
  feeToken: string;
  chain: LocalStarknetChain;
  /** Places an account holding the key's public key (a random key when omitted); no transaction needed. */
  createAccount(privateKey?: string): LocalStarknetAccountKeys;
  deployErc20(options: { symbol: string; decimals: number }): string;
  deployHtlc(options: { token: string; layout: OrderIdLayout }): string;
  mint(token: string, to: string, amount: bigint): void;
  balanceOf(token: string, owner: string): bigint;
  /** Makes `count` blocks now (on top of the interval). */
  mineBlock(count?: number): void;
  /** Stops the interval's blocks; `mineBlock` still makes blocks. */
  pause(): void;
  resume(): void;
  /** Sets the gas prices of the blocks made from now on (fee spikes). */
  setGasPrices(prices: { l1?: bigint; l2?: bigint; l1Data?: bigint }): void;
  /**
   * Sends a transaction (from a funded local account) making the test-only emitter at `from` emit the
   * event `repeat` times; the emitter is placed at `from` when nothing is there. Returns the transaction
   * hash; the events land with the next block.
   */
  emitEvent(from: string, keys: bigint[], data: bigint[], repeat?: number): string;
  stop(): Promise<void>;
}

const DEV_ACCOUNT_FUNDS = 10n ** 30n;

function randomPrivateKey(): string {
  return feltHex(BigInt(`0x${Buffer.from(ec.starkCurve.utils.randomPrivateKey()).toString("hex")}`));
}

function parseAddress(text: string, what: string): bigint {
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(text))
    throw new TypeError(`${what} must be a 0x-prefixed hex address, got ${text}`);
  return BigInt(text);
}

export async function startLocalStarknet(options: StartLocalStarknetOptions = {}): Promise<LocalStarknet> {
  const blockMs = options.blockMs ?? 1000;
  if (!Number.isInteger(blockMs) || blockMs < 0)
    throw new RangeError(`blockMs must be a whole number >= 0, got ${blockMs}`);
  const depth = options.l1AcceptDepth ?? 10;
  if (!Number.isInteger(depth) || depth < 1)
    throw new RangeError(`l1AcceptDepth must be a whole number >= 1, got ${depth}`);
  const chainId = shortStringFelt(options.chainId ?? "SN_LOCALNET");
  const chain = new LocalStarknetChain({
    chainId,
    feeToken: LOCAL_FEE_TOKEN,
    sequencer: LOCAL_SEQUENCER,
    l1AcceptDepth: BigInt(depth),
  });
  const server = createStarknetRpcServer(chain, options.logger);
  await listen(server, options.port ?? 0, "127.0.0.1");
  const { port } = server.address() as AddressInfo;
  let paused = false;
  const timer =
    blockMs > 0
      ? setInterval(() => {
          if (!paused) chain.mineBlock();
        }, blockMs)
      : undefined;
  timer?.unref();

  let deployments = 0n;
  const deployAt = (classHash: bigint, calldata: bigint[]): bigint => {
    deployments += 1n;
    return BigInt(hash.calculateContractAddressFromHash(deployments, classHash, calldata.map(feltHex), 0));
  };
  const tokenAt = (world: World, token: string) => world.contractAt(parseAddress(token, "token"), Erc20Model);

  const createAccount = (privateKey = randomPrivateKey()): LocalStarknetAccountKeys => {
    const publicKey = BigInt(ec.starkCurve.getStarkKey(privateKey));
    const address = BigInt(
      hash.calculateContractAddressFromHash(publicKey, LOCAL_ACCOUNT_CLASS_HASH, [publicKey], 0),
    );
    chain.deploy(address, new AccountModel(publicKey));
    return { address: feltHex(address), privateKey, publicKey: feltHex(publicKey) };
  };
  const dev = createAccount();
  chain.setup((world) =>
    world.contractAt(LOCAL_FEE_TOKEN, Erc20Model).mint(BigInt(dev.address), DEV_ACCOUNT_FUNDS),
  );

  return {
    url: `http://127.0.0.1:${port}`,
    chainId: feltHex(chainId),
    feeToken: feltHex(LOCAL_FEE_TOKEN),
    chain,
    createAccount,
    deployErc20: ({ symbol, decimals }) => {
      const address = deployAt(LOCAL_ERC20_CLASS_HASH, [shortStringFelt(symbol), BigInt(decimals)]);
      chain.deploy(address, new Erc20Model(symbol, symbol, decimals));
      return feltHex(address);
    },
    deployHtlc: ({ token, layout }) => {
      const tokenAddress = parseAddress(token, "token");
      tokenAt(chain.stateAt("latest"), token);
      const address = deployAt(LOCAL_HTLC_CLASS_HASH, [tokenAddress]);
      chain.deploy(address, new HtlcModel(tokenAddress, layout));
      return feltHex(address);
    },
    mint: (token, to, amount) =>
      chain.setup((world) => tokenAt(world, token).mint(parseAddress(to, "to"), amount)),
    balanceOf: (token, owner) =>
      tokenAt(chain.stateAt("latest"), token).balanceOf(parseAddress(owner, "owner")),
    mineBlock: (count = 1) => {
      for (let i = 0; i < count; i++) chain.mineBlock();
    },
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
    },
    setGasPrices: (prices) => {
      const next: GasPrices = { ...chain.gasPrices, ...prices };
      chain.gasPrices = next;
    },
    emitEvent: (from, keys, data, repeat = 1) => {
      const emitter = parseAddress(from, "from");
      if (!chain.stateAt("latest").contracts.has(emitter)) chain.deploy(emitter, new EventEmitterModel());
      const sender = BigInt(dev.address);
      const calls = [
        {
          to: emitter,
          entrypoint: "emit_event",
          calldata: [BigInt(repeat), BigInt(keys.length), ...keys, BigInt(data.length), ...data],
        },
      ];
      // Generous bounds the dev account's funds cover many times over, above any price a test sets.
      const generous = { maxAmount: 10n ** 10n, maxPricePerUnit: 10n ** 12n };
      const { tx } = signInvoke(
        {
          senderAddress: sender,
          calldata: executeCalldata(calls),
          nonce: chain.stateAt("latest").nonceOf(sender) + BigInt(chain.mempool.waitingOf(sender).length),
          resourceBounds: {
            l1Gas: { maxAmount: 0n, maxPricePerUnit: 10n ** 15n },
            l2Gas: generous,
            l1DataGas: generous,
          },
          tip: 0n,
        },
        dev.privateKey,
        chainId,
      );
      return feltHex(chain.submit(tx));
    },
    stop: async () => {
      if (timer !== undefined) clearInterval(timer);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
