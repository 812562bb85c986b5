/**
 * The localnet's Bitcoin chain: the project's regtest node, coinbases for the solver and the test
 * users (matured by 100 more blocks), and a miner that mines one block per interval like anvil's
 * interval mining (interval-miner.ts). Tests may also mine on demand through the node's RPC (`generatetoaddress`).
 */
import { createHash } from "node:crypto";
import type { Logger } from "pino";
import { BitcoinKey } from "htlc-solver/chains/bitcoin/keys.js";
import { bitcoinNetwork } from "htlc-solver/chains/bitcoin/network.js";
import { BitcoinRpcClient } from "htlc-solver/chains/bitcoin/rpc.js";
import { startBitcoinRegtest, type RegtestEndpoint, type StartBitcoinRegtestOptions } from "./chain/index.js";
import { IntervalMiner } from "./interval-miner.js";

export const LOCALNET_BITCOIN_CHAIN = "bitcoin_regtest";
export const LOCALNET_BITCOIN_ASSET = `${LOCALNET_BITCOIN_CHAIN}:btc`;

/**
 * Localnet Bitcoin timing (blocks). The solver fills only when the source outlasts the destination
 * plus its 10 minute margin at 1 s blocks: a Bitcoin source of 2880 blocks covers an EVM destination of
 * 600, and a Bitcoin destination of 144 fits inside an EVM source of 7200.
 */
export const LOCALNET_BITCOIN_TIMING = {
  blockTimeMs: 1000,
  sourceTimelock: 2880,
  destinationTimelock: 144,
  requiredConfirmations: 1,
  finalityDepth: 2,
};

/** Coinbases (50 BTC each below height 150) mined to the solver and to each user before maturity. */
const SOLVER_COINBASES = 10;
const USER_COINBASES = 3;
const COINBASE_MATURITY = 100;

export interface LocalnetBitcoinKey {
  /** 32-byte private key, hex. */
  privateKey: string;
  /** The x-only public key, hex: the party in HTLC scripts. */
  xOnlyKey: string;
  /** The key-path P2TR address of the key (regtest). */
  address: string;
}

/**
 * A fixed localnet key: sha256 of a public label (`localnet bitcoin solver`, `localnet bitcoin user 0`,
 * ...). Anyone can derive these: regtest only, never real funds.
 */
export function localnetBitcoinKey(label: string): LocalnetBitcoinKey {
  const privateKey = createHash("sha256").update(`localnet bitcoin ${label}`).digest("hex");
  const key = BitcoinKey.fromHex(privateKey);
  return {
    privateKey,
    xOnlyKey: key.xOnlyHex,
    address: key.walletPayment(bitcoinNetwork("regtest")).address,
  };
}

export interface LocalBitcoinChain {
  name: string;
  network: "regtest";
  rpcUrl: string;
  rpcUser: string;
  rpcPassword: string;
  rpc: BitcoinRpcClient;
  regtest: RegtestEndpoint;
  /** Mines `count` blocks now (to the miner's address); returns the new tip. */
  mine(count?: number): Promise<number>;
  stop(): Promise<void>;
}

export async function setUpBitcoinChain(options: {
  solverAddress: string;
  userAddresses: string[];
  /** One block per this many milliseconds; 0 mines only on demand. */
  blockTimeMs: number;
  /** The node's -blockmintxfee, sat/vB (default 1). */
  blockMinFeeRateSatVb?: number;
  /** Starts the node; in this process when omitted (the load benchmark runs it as its own). */
  startNode?: (options: StartBitcoinRegtestOptions) => Promise<RegtestEndpoint>;
  logger: Logger;
}): Promise<LocalBitcoinChain> {
  const regtest = await (options.startNode ?? startBitcoinRegtest)(
    options.blockMinFeeRateSatVb === undefined ? {} : { blockMinFeeRateSatVb: options.blockMinFeeRateSatVb },
  );
  const rpc = new BitcoinRpcClient({
    url: regtest.rpcUrl,
    user: regtest.rpcUser,
    password: regtest.rpcPassword,
  });
  const minerAddress = localnetBitcoinKey("miner").address;
  try {
    await rpc.generateToAddress(SOLVER_COINBASES, options.solverAddress);
    for (const address of options.userAddresses) await rpc.generateToAddress(USER_COINBASES, address);
    await rpc.generateToAddress(COINBASE_MATURITY, minerAddress);
  } catch (error) {
    await regtest.stop();
    throw error;
  }
  const miner = new IntervalMiner(rpc, minerAddress, options.blockTimeMs, options.logger);
  miner.start();
  return {
    name: LOCALNET_BITCOIN_CHAIN,
    network: "regtest",
    rpcUrl: regtest.rpcUrl,
    rpcUser: regtest.rpcUser,
    rpcPassword: regtest.rpcPassword,
    rpc,
    regtest,
    mine: async (count = 1) => {
      await rpc.generateToAddress(count, minerAddress);
      return rpc.getBlockCount();
    },
    stop: async () => {
      await miner.stop();
      await regtest.stop();
    },
  };
}
