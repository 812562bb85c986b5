/** The Bitcoin family of the local service: Taproot HTLCs paid to deposit addresses, instant refunds. */
import { ecc } from "htlc-solver/chains/bitcoin/ecc.js";
import { MAX_CSV_BLOCKS } from "htlc-solver/chains/bitcoin/htlc.js";
import { LocalServiceConfigError } from "../../../service/config.js";
import type { LocalServiceFamily } from "../../local-family.js";
import { withDestinationKey, withSourceKey } from "./bitcoin-delegates.js";
import { BitcoinServiceChain } from "./bitcoin-service-chain.js";

/** The token address the API shows for Bitcoin's coin (the solver's config names it the same way). */
const BITCOIN_TOKEN_ADDRESS = "primary";
const BITCOIN_NETWORKS = new Set(["mainnet", "testnet", "regtest"]);

function fail(message: string): never {
  throw new LocalServiceConfigError(message);
}

export const bitcoinServiceFamily: LocalServiceFamily<"bitcoin"> = {
  family: "bitcoin",
  validateChain: (chain) => {
    const where = `chain ${chain.name}`;
    if (!BITCOIN_NETWORKS.has(chain.network)) {
      fail(`${where}: network ${chain.network} is not one of mainnet, testnet, regtest`);
    }
    if (!URL.canParse(chain.rpcUrl)) fail(`${where}: rpcUrl ${chain.rpcUrl} is not a URL`);
    for (const key of ["sourceTimelock", "destinationTimelock"] as const) {
      if (chain[key] > MAX_CSV_BLOCKS)
        fail(`${where}: ${key} must be at most ${MAX_CSV_BLOCKS} blocks (CSV)`);
    }
    const maxFee = chain.maxFeeRateSatVb;
    if (maxFee !== undefined && (!Number.isInteger(maxFee) || maxFee < 1)) {
      fail(`${where}: maxFeeRateSatVb must be an integer >= 1`);
    }
    for (const asset of chain.assets) {
      if (asset.decimals !== 8) fail(`${where}: asset ${asset.symbol} must have 8 decimals (satoshis)`);
    }
  },
  isNative: () => true,
  createServiceChain: (chain, parts) => new BitcoinServiceChain(chain, parts.keys),
  apiChainId: (chain) => chain.network,
  // The HTLC is a Taproot script, not a contract: the interface (docs/service-api.md) names no schema for it.
  apiSchemas: () => ({ supported_htlc_schemas: [], supported_token_schemas: [], htlc: null, token: null }),
  apiAssetAddresses: () => ({ token_address: BITCOIN_TOKEN_ADDRESS, htlc_address: "" }),
  solverAddress: (solver) => solver.addresses.bitcoin,
  solverAddressProblem: (address) =>
    /^[0-9a-fA-F]{64}$/.test(address) && ecc.isXOnlyPoint(Buffer.from(address, "hex"))
      ? null
      : "is not an x-only public key (64 hex)",
  // A Bitcoin user pays the order's deposit address, so the order need not name where the coins come from.
  sourceOwnerOptional: true,
  nativeSourceInitiatedByUser: false,
  // A deposit to a fresh address can take longer to be seen than a contract call.
  initiateDetectSeconds: (deadlines) => deadlines.bitcoinInitiateDetectSeconds,
  withDelegate: (request, side, field, clientSecretHash) =>
    field === "source" ? withSourceKey(request, side) : withDestinationKey(request, side, clientSecretHash),
};
