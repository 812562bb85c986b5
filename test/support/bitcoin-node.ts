import { BitcoinRpcClient } from "../../src/chains/bitcoin/rpc.js";
import { blockSubsidy, startBitcoinRegtest } from "@htlc-solver/localnet/families/bitcoin/chain/index.js";
import type { BitcoinRegtestNode } from "@htlc-solver/localnet/families/bitcoin/chain/node.js";

/** Tests fund themselves from coinbases; below this subsidy (height 1350 and up) they would run dry. */
const MIN_TEST_SUBSIDY_SATS = 10_000_000n;

export interface BitcoinTestNode {
  rpc: BitcoinRpcClient;
  rpcUrl: string;
  rpcUser: string;
  rpcPassword: string;
  /** True when the tests talk to a real bitcoind given by BITCOIND_RPC_URL: never assume a fresh chain. */
  isExternal: boolean;
  /** The in-process node, when local. */
  local: BitcoinRegtestNode | null;
  stop(): Promise<void>;
}

/**
 * A regtest node for tests: the real `bitcoind -regtest` named by BITCOIND_RPC_URL (with
 * BITCOIND_RPC_USER / BITCOIND_RPC_PASSWORD), otherwise the project's local verifying node.
 */
export async function startBitcoinForTests(): Promise<BitcoinTestNode> {
  const externalUrl = process.env.BITCOIND_RPC_URL;
  if (externalUrl !== undefined && externalUrl !== "") {
    const rpcUser = process.env.BITCOIND_RPC_USER ?? "";
    const rpcPassword = process.env.BITCOIND_RPC_PASSWORD ?? "";
    const rpc = new BitcoinRpcClient({ url: externalUrl, user: rpcUser, password: rpcPassword });
    const { chain } = await rpc.getBlockchainInfo();
    // The tests mine and invalidate blocks: refuse anything but a regtest chain.
    if (chain !== "regtest") {
      throw new Error(`BITCOIND_RPC_URL points at a ${chain} node; the tests need -regtest`);
    }
    const height = await rpc.getBlockCount();
    // Regtest halves the subsidy every 150 blocks: a long-lived chain no longer mints enough to fund tests.
    if (blockSubsidy(height + 1) < MIN_TEST_SUBSIDY_SATS) {
      throw new Error(
        `the regtest chain behind BITCOIND_RPC_URL is at height ${height}, where a block mints only ` +
          `${blockSubsidy(height + 1)} sats; restart bitcoind with a fresh -datadir`,
      );
    }
    return {
      rpc,
      rpcUrl: externalUrl,
      rpcUser,
      rpcPassword,
      isExternal: true,
      local: null,
      stop: async () => {},
    };
  }
  const regtest = await startBitcoinRegtest();
  const rpc = new BitcoinRpcClient({
    url: regtest.rpcUrl,
    user: regtest.rpcUser,
    password: regtest.rpcPassword,
  });
  return {
    rpc,
    rpcUrl: regtest.rpcUrl,
    rpcUser: regtest.rpcUser,
    rpcPassword: regtest.rpcPassword,
    isExternal: false,
    local: regtest.node,
    stop: regtest.stop,
  };
}
