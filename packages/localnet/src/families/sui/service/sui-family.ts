/**
 * The Sui family of the local service: one `OrdersRegistry<CoinType>` shared object per coin, initiated
 * by the user's own transaction (the create-order answer's `ptb_bytes`; no relayed initiate on Sui).
 */
import { readCoinType, SUI_COIN_TYPE } from "htlc-solver/chains/sui/address.js";
import { readSuiKey } from "htlc-solver/chains/sui/key.js";
import { SUI_MAX_TIMELOCK_MS } from "htlc-solver/chains/sui/config.js";
import { LocalServiceConfigError } from "../../../service/config.js";
import type { LocalServiceFamily } from "../../local-family.js";
import { suiAddressProblem } from "./sui-address.js";
import { SuiServiceChain } from "./sui-service-chain.js";

function fail(message: string): never {
  throw new LocalServiceConfigError(message);
}

export const suiServiceFamily: LocalServiceFamily<"sui"> = {
  family: "sui",
  validateChain: (chain) => {
    const where = `chain ${chain.name}`;
    if (!URL.canParse(chain.rpcUrl)) fail(`${where}: rpcUrl ${chain.rpcUrl} is not a URL`);
    if (!/^[a-z0-9_]+$/.test(chain.chainId))
      fail(`${where}: chainId ${JSON.stringify(chain.chainId)} is not a chain name`);
    for (const key of ["packageId", "relayerAddress"] as const) {
      const problem = suiAddressProblem(chain[key]);
      if (problem !== null) fail(`${where}: ${key} ${chain[key]} ${problem}`);
    }
    const key = readSuiKey(chain.relayerPrivateKey);
    if ("problem" in key) fail(`${where}: relayerPrivateKey ${key.problem} (value not shown)`);
    for (const timelock of ["sourceTimelock", "destinationTimelock"] as const) {
      if (chain[timelock] > SUI_MAX_TIMELOCK_MS) {
        fail(
          `${where}: ${timelock} ${chain[timelock]} exceeds the module's ${SUI_MAX_TIMELOCK_MS} ms (7 days)`,
        );
      }
    }
    for (const asset of chain.assets) {
      if (readCoinType(asset.coinType) !== asset.coinType) {
        fail(
          `${where}: asset ${asset.symbol} coinType ${asset.coinType} is not a coin type in full (0x and 64 hex::module::Name)`,
        );
      }
      const problem = suiAddressProblem(asset.registryId);
      if (problem !== null) fail(`${where}: asset ${asset.symbol} registryId ${asset.registryId} ${problem}`);
      if (!/^[1-9][0-9]{0,19}$/.test(asset.registryInitialSharedVersion)) {
        fail(`${where}: asset ${asset.symbol} registryInitialSharedVersion must be a positive integer`);
      }
    }
  },
  isNative: (asset) => asset.coinType === SUI_COIN_TYPE,
  createServiceChain: (chain) => new SuiServiceChain(chain),
  apiChainId: (chain) => chain.chainId,
  // The schema names the live service lists for Sui chains are not published; these follow the others'
  // `<family>:htlc` / `<family>:<token standard>` pattern.
  apiSchemas: (chain) => {
    const first = chain.assets[0];
    return {
      supported_htlc_schemas: ["sui:htlc"],
      supported_token_schemas: ["sui:coin"],
      htlc: first === undefined ? null : { schema: "sui:htlc", address: first.registryId },
      token: { schema: "sui:coin" },
    };
  },
  // As the live service's asset list shows a Sui asset: the coin type, and the registry as its HTLC.
  apiAssetAddresses: (asset) => ({
    token_address: asset.config.coinType,
    htlc_address: asset.config.registryId,
  }),
  solverAddress: (solver) => solver.addresses.sui,
  solverAddressProblem: suiAddressProblem,
  sourceOwnerOptional: false,
  nativeSourceInitiatedByUser: false,
  initiateDetectSeconds: (deadlines) => deadlines.initiateDetectSeconds,
  withDelegate: (_request, side) => side,
};
