/** The Starknet family of the local service: one HTLC contract per ERC20, initiates relayed by signature. */
import { shortString } from "starknet";
import { ORDER_ID_LAYOUTS } from "htlc-solver/chains/starknet/order-id.js";
import { LocalServiceConfigError } from "../../../service/config.js";
import type { LocalServiceFamily } from "../../local-family.js";
import { starknetAddressProblem } from "./starknet-address.js";
import { StarknetServiceChain } from "./starknet-service-chain.js";

const PRIVATE_KEY = /^(0x)?[0-9a-fA-F]{64}$/;

function fail(message: string): never {
  throw new LocalServiceConfigError(message);
}

export const starknetServiceFamily: LocalServiceFamily<"starknet"> = {
  family: "starknet",
  validateChain: (chain) => {
    const where = `chain ${chain.name}`;
    if (!URL.canParse(chain.rpcUrl)) fail(`${where}: rpcUrl ${chain.rpcUrl} is not a URL`);
    if (!shortString.isShortString(chain.chainId) || !shortString.isASCII(chain.chainId)) {
      fail(`${where}: chainId ${JSON.stringify(chain.chainId)} is not a short string (at most 31 ASCII)`);
    }
    if (!ORDER_ID_LAYOUTS.includes(chain.orderIdLayout)) {
      fail(
        `${where}: orderIdLayout ${JSON.stringify(chain.orderIdLayout)} must be one of ${ORDER_ID_LAYOUTS.join(", ")}`,
      );
    }
    const relayer = starknetAddressProblem(chain.relayerAddress);
    if (relayer !== null) fail(`${where}: relayerAddress ${chain.relayerAddress} ${relayer}`);
    if (!PRIVATE_KEY.test(chain.relayerPrivateKey)) fail(`${where}: relayerPrivateKey must be 64 hex`);
    for (const asset of chain.assets) {
      for (const key of ["tokenAddress", "htlcAddress"] as const) {
        const problem = starknetAddressProblem(asset[key]);
        if (problem !== null) fail(`${where}: asset ${asset.symbol} ${key} ${asset[key]} ${problem}`);
      }
    }
  },
  // Every swappable asset is an ERC20 held by its HTLC; STRK pays fees and is not offered.
  isNative: () => false,
  createServiceChain: (chain) => new StarknetServiceChain(chain),
  apiChainId: (chain) => chain.chainId,
  // The interface's schema names (docs/service-api.md): `starknet:htlc_erc20` and `starknet:erc20`.
  apiSchemas: (chain) => {
    const first = chain.assets[0];
    return {
      supported_htlc_schemas: ["starknet:htlc_erc20"],
      supported_token_schemas: ["starknet:erc20"],
      htlc: first === undefined ? null : { schema: "starknet:htlc_erc20", address: first.htlcAddress },
      token: { schema: "starknet:erc20" },
    };
  },
  apiAssetAddresses: (asset) => ({
    token_address: asset.config.tokenAddress,
    htlc_address: asset.config.htlcAddress,
  }),
  solverAddress: (solver) => solver.addresses.starknet,
  solverAddressProblem: starknetAddressProblem,
  sourceOwnerOptional: false,
  nativeSourceInitiatedByUser: false,
  initiateDetectSeconds: (deadlines) => deadlines.initiateDetectSeconds,
  withDelegate: (_request, side) => side,
};
