/**
 * `config check --online` for a Bitcoin chain: every endpoint is on the configured network. bitcoind
 * says which chain it follows (`getblockchaininfo`); an Esplora server is asked for its genesis block.
 */
import type { OnlineProblem } from "../family-module.js";
import { failureText, jsonRpcCall } from "../online-rpc.js";
import type { BitcoinChainConfig } from "./config.js";

/** What bitcoind's `getblockchaininfo` calls each configured network. */
const BITCOIND_CHAINS: Record<string, readonly string[]> = {
  mainnet: ["main"],
  testnet: ["test", "testnet4"],
  regtest: ["regtest"],
};

/** Genesis block hashes of each configured network (testnet: testnet3 and testnet4). */
const GENESIS: Record<string, readonly string[]> = {
  mainnet: ["000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f"],
  testnet: [
    "000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943",
    "00000000da84f2bafbbc53dee25a72ae507ff4914b867c565be350b0da8bf043",
  ],
  regtest: ["0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206"],
};

async function bitcoindProblem(
  config: BitcoinChainConfig,
  url: string,
  index: number,
): Promise<OnlineProblem | null> {
  let info: unknown;
  try {
    info = await jsonRpcCall(url, "getblockchaininfo", [], {
      timeoutMs: config.rpcTimeoutMs,
      user: config.rpcUser,
      password: config.rpcPassword,
    });
  } catch (error) {
    return { key: `rpcUrls[${index}]`, message: `does not answer getblockchaininfo (${failureText(error)})` };
  }
  const chain = typeof info === "object" && info !== null ? (info as { chain?: unknown }).chain : undefined;
  if (typeof chain === "string" && (BITCOIND_CHAINS[config.network] ?? []).includes(chain)) return null;
  return {
    key: "network",
    message: `"${config.network}" differs from rpcUrls[${index}], which follows ${JSON.stringify(chain)}`,
  };
}

async function esploraProblem(
  config: BitcoinChainConfig,
  url: string,
  index: number,
): Promise<OnlineProblem | null> {
  let genesis: string;
  try {
    const response = await fetch(`${url.replace(/\/+$/, "")}/block-height/0`, {
      signal: AbortSignal.timeout(config.rpcTimeoutMs),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    genesis = (await response.text()).trim();
  } catch (error) {
    return {
      key: `esploraUrls[${index}]`,
      message: `does not answer /block-height/0 (${failureText(error)})`,
    };
  }
  if ((GENESIS[config.network] ?? []).includes(genesis)) return null;
  return {
    key: "network",
    message: `"${config.network}" differs from esploraUrls[${index}], whose genesis block is ${genesis}`,
  };
}

export async function checkBitcoinChainOnline(config: BitcoinChainConfig): Promise<OnlineProblem[]> {
  const checks =
    config.backend === "esplora"
      ? config.esploraUrls.map((url, index) => esploraProblem(config, url, index))
      : config.rpcUrls.map((url, index) => bitcoindProblem(config, url, index));
  return (await Promise.all(checks)).filter((p): p is OnlineProblem => p !== null);
}
