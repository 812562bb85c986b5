/**
 * The local Sui chain for tests and the localnet: an object store and a programmable-transaction executor
 * that verify what they accept (signatures over the intent message, owned object versions and digests,
 * locks, gas, BCS layouts, the AtomicSwap module's order ids and secrets) behind Sui's JSON-RPC,
 * checkpoints on an interval or on demand, and setup helpers that place coins and registries without
 * transactions.
 */
import type { AddressInfo } from "node:net";
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519";
import { Transaction } from "@mysten/sui/transactions";
import { normalizeStructTag, normalizeSuiAddress, toBase64 } from "@mysten/sui/utils";
import type { Logger } from "pino";
import { listen } from "htlc-solver/util/listen.js";
import { LocalSuiChain } from "./chain.js";
import { LocalSuiAccount, type RegistryRef } from "./local-sui-account.js";
import { SUI_COIN_TYPE } from "./objects.js";
import { LOCAL_CHAIN_IDENTIFIER } from "./rpc-methods-objects.js";
import { createSuiRpcServer } from "./rpc-server.js";

export { LocalSuiChain } from "./chain.js";
export { SUI_RPC_METHODS } from "./rpc-server.js";
export { LocalSuiAccount, SuiNodeError, suiRpc } from "./local-sui-account.js";
export { orderIdOf } from "./order-id.js";

/** Where the local chain places the AtomicSwap package (local only; the live ids are in the service's SDK). */
export const LOCAL_ATOMIC_SWAP_PACKAGE = normalizeSuiAddress("0x10ca1a70c5a9");
/** A test-only package whose `AtomicSwap::emit_redeemed` emits look-alike `Redeemed` events. */
export const LOCAL_LOOKALIKE_PACKAGE = normalizeSuiAddress("0xbad0a70c5a9");
/** The package the local test coin types (`createCoinType`) live in. */
export const LOCAL_TEST_COINS_PACKAGE = normalizeSuiAddress("0x70c0");

export interface StartLocalSuiOptions {
  /** TCP port on 127.0.0.1; a free one when omitted. */
  port?: number;
  /** Milliseconds per checkpoint (default 1000); 0 makes checkpoints only on demand. */
  checkpointMs?: number;
  logger?: Logger;
}

export interface LocalSuiAccountKeys {
  address: string;
  /** The SDK's bech32 `suiprivkey1…` form of the Ed25519 secret key. */
  secretKey: string;
  /** The raw 32-byte Ed25519 public key, base64. */
  publicKey: string;
}

export interface LookalikeRedeemed {
  orderId: Uint8Array;
  secretHash: Uint8Array;
  secret: Uint8Array;
}

export interface LocalSui {
  url: string;
  chainIdentifier: string;
  packageId: string;
  lookalikePackageId: string;
  chain: LocalSuiChain;
  /** An Ed25519 key pair and its address (a random key when omitted); Sui accounts need no creation. */
  createAccount(secretKey?: string): LocalSuiAccountKeys;
  /** A new SUI coin object of `amount` MIST owned by `to`; returns its id. */
  mintSui(to: string, amount: bigint): string;
  /** A test coin type `<test coins package>::<module>::<name>`; returns the type string. */
  createCoinType(options: { module: string; name: string; decimals: number }): string;
  decimalsOf(coinType: string): number | undefined;
  /** A new coin object of `coinType` owned by `to`; returns its id. */
  mint(coinType: string, to: string, amount: bigint): string;
  /** A shared `OrdersRegistry<coinType>` of the AtomicSwap package. */
  createRegistry(coinType: string): RegistryRef;
  balanceOf(coinType: string, owner: string): bigint;
  makeCheckpoint(): bigint;
  pause(): void;
  resume(): void;
  advanceClock(ms: number | bigint): void;
  setReferenceGasPrice(price: bigint): void;
  /**
   * Sends, from a funded local account, a transaction calling the look-alike package's
   * `AtomicSwap::emit_redeemed`: a `Redeemed` event of another package carrying whatever is passed.
   * Returns the transaction digest.
   */
  emitEvent(event: LookalikeRedeemed): Promise<string>;
  stop(): Promise<void>;
}

const DEV_ACCOUNT_FUNDS = 10n ** 18n;

function parseCoinType(coinType: string): string {
  try {
    return normalizeStructTag(coinType);
  } catch {
    throw new TypeError(`coinType must be a Move struct type like 0x2::sui::SUI, got ${coinType}`);
  }
}

function parseAddress(address: string, what: string): string {
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(address))
    throw new TypeError(`${what} must be a 0x-prefixed hex Sui address, got ${address}`);
  return normalizeSuiAddress(address);
}

export async function startLocalSui(options: StartLocalSuiOptions = {}): Promise<LocalSui> {
  const checkpointMs = options.checkpointMs ?? 1000;
  if (!Number.isInteger(checkpointMs) || checkpointMs < 0)
    throw new RangeError(`checkpointMs must be a whole number >= 0, got ${checkpointMs}`);
  const chain = new LocalSuiChain({
    packageId: LOCAL_ATOMIC_SWAP_PACKAGE,
    lookalikePackageId: LOCAL_LOOKALIKE_PACKAGE,
  });
  const server = createSuiRpcServer(chain, options.logger);
  await listen(server, options.port ?? 0, "127.0.0.1");
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const timer = checkpointMs > 0 ? setInterval(() => chain.makeCheckpoint(), checkpointMs) : undefined;
  timer?.unref();

  const coinDecimals = new Map<string, number>([[SUI_COIN_TYPE, 9]]);
  const mintCoin = (coinType: string, to: string, amount: bigint): string => {
    if (amount <= 0n) throw new RangeError(`amount must be > 0, got ${amount}`);
    const id = chain.setupObjectId();
    chain.placeObject(
      id,
      { kind: "address", address: parseAddress(to, "to") },
      { kind: "coin", coinType, balance: amount },
    );
    return id;
  };
  const createAccount = (secretKey?: string): LocalSuiAccountKeys => {
    const keypair =
      secretKey === undefined ? Ed25519Keypair.generate() : Ed25519Keypair.fromSecretKey(secretKey);
    return {
      address: keypair.toSuiAddress(),
      secretKey: keypair.getSecretKey(),
      publicKey: toBase64(keypair.getPublicKey().toRawBytes()),
    };
  };
  const dev = createAccount();
  mintCoin(SUI_COIN_TYPE, dev.address, DEV_ACCOUNT_FUNDS);
  const devAccount = new LocalSuiAccount(url, dev.secretKey, LOCAL_LOOKALIKE_PACKAGE);
  return {
    url,
    chainIdentifier: LOCAL_CHAIN_IDENTIFIER,
    packageId: LOCAL_ATOMIC_SWAP_PACKAGE,
    lookalikePackageId: LOCAL_LOOKALIKE_PACKAGE,
    chain,
    createAccount,
    mintSui: (to, amount) => mintCoin(SUI_COIN_TYPE, to, amount),
    createCoinType: ({ module, name, decimals }) => {
      if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(module) || !/^[A-Za-z][A-Za-z0-9_]*$/.test(name))
        throw new TypeError(`module and name must be Move identifiers, got ${module}::${name}`);
      if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255)
        throw new RangeError(`decimals must be a whole number 0..255, got ${decimals}`);
      const coinType = normalizeStructTag(`${LOCAL_TEST_COINS_PACKAGE}::${module}::${name}`);
      coinDecimals.set(coinType, decimals);
      return coinType;
    },
    decimalsOf: (coinType) => coinDecimals.get(parseCoinType(coinType)),
    mint: (coinType, to, amount) => {
      const type = parseCoinType(coinType);
      if (!coinDecimals.has(type))
        throw new TypeError(`unknown coin type ${coinType}: create it with createCoinType`);
      return mintCoin(type, to, amount);
    },
    createRegistry: (coinType) => {
      const type = parseCoinType(coinType);
      const id = chain.setupObjectId();
      const registry = chain.placeObject(
        id,
        { kind: "shared", initialSharedVersion: 1n },
        { kind: "registry", coinType: type },
      );
      return { registryId: registry.id, initialSharedVersion: 1n };
    },
    balanceOf: (coinType, owner) =>
      chain.store
        .coinsOf(parseAddress(owner, "owner"), parseCoinType(coinType))
        .reduce((sum, o) => sum + (o.contents.kind === "coin" ? o.contents.balance : 0n), 0n),
    makeCheckpoint: () => chain.makeCheckpoint(),
    pause: () => chain.pause(),
    resume: () => chain.resume(),
    advanceClock: (ms) => chain.advanceClock(BigInt(ms)),
    setReferenceGasPrice: (price) => chain.setReferenceGasPrice(price),
    emitEvent: async ({ orderId, secretHash, secret }) => {
      const tx = new Transaction();
      tx.moveCall({
        target: `${LOCAL_LOOKALIKE_PACKAGE}::AtomicSwap::emit_redeemed`,
        arguments: [
          tx.pure.vector("u8", Array.from(orderId)),
          tx.pure.vector("u8", Array.from(secretHash)),
          tx.pure.vector("u8", Array.from(secret)),
        ],
      });
      return (await devAccount.execute(tx)).digest;
    },
    stop: async () => {
      if (timer !== undefined) clearInterval(timer);
      chain.dropWaiting();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
