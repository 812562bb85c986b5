/** The Solana family of the local service: the native and SPL HTLC programs, relayed token initiates. */
import { solanaAddressProblem } from "htlc-solver/chains/solana/address.js";
import { readSolanaSecretKey } from "htlc-solver/chains/solana/keypair.js";
import { SOLANA_PROGRAM_VERSIONS } from "htlc-solver/chains/solana/program-version.js";
import { LocalServiceConfigError } from "../../../service/config.js";
import type { LocalServiceFamily } from "../../local-family.js";
import { SolanaServiceChain } from "./solana-service-chain.js";

function fail(message: string): never {
  throw new LocalServiceConfigError(message);
}

export const solanaServiceFamily: LocalServiceFamily<"solana"> = {
  family: "solana",
  validateChain: (chain) => {
    const where = `chain ${chain.name}`;
    if (!URL.canParse(chain.rpcUrl)) fail(`${where}: rpcUrl ${chain.rpcUrl} is not a URL`);
    for (const key of ["nativeProgramId", "splProgramId"] as const) {
      const problem = solanaAddressProblem(chain[key]);
      if (problem !== null) fail(`${where}: ${key} ${chain[key]} ${problem}`);
    }
    if (!SOLANA_PROGRAM_VERSIONS.includes(chain.programVersion)) {
      fail(
        `${where}: programVersion ${JSON.stringify(chain.programVersion)} must be one of ${SOLANA_PROGRAM_VERSIONS.join(", ")}`,
      );
    }
    const key = readSolanaSecretKey(chain.relayerSecretKey);
    if ("problem" in key) fail(`${where}: relayerSecretKey ${key.problem}`);
    for (const asset of chain.assets) {
      if (asset.tokenAddress !== "native" && solanaAddressProblem(asset.tokenAddress) !== null) {
        fail(`${where}: asset ${asset.symbol} tokenAddress must be "native" or an SPL mint address`);
      }
    }
  },
  isNative: (asset) => asset.tokenAddress === "native",
  createServiceChain: (chain) => new SolanaServiceChain(chain),
  apiChainId: (chain) => String(chain.chainId),
  // The interface's schema names (docs/service-api.md): `solana:htlc` (SOL), `solana:htlc_spltoken` and
  // `solana:spltoken` (tokens).
  apiSchemas: (chain) => {
    const hasNative = chain.assets.some((a) => a.tokenAddress === "native");
    const hasTokens = chain.assets.some((a) => a.tokenAddress !== "native");
    return {
      supported_htlc_schemas: [
        ...(hasNative ? ["solana:htlc"] : []),
        ...(hasTokens ? ["solana:htlc_spltoken"] : []),
      ],
      supported_token_schemas: hasTokens ? ["solana:spltoken"] : [],
      htlc: hasTokens
        ? { schema: "solana:htlc_spltoken", address: chain.splProgramId }
        : { schema: "solana:htlc", address: chain.nativeProgramId },
      token: hasTokens ? { schema: "solana:spltoken" } : null,
    };
  },
  // SOL shows as `native`, tokens by their mint; the HTLC is the asset's program.
  apiAssetAddresses: (asset) => ({
    token_address: asset.config.tokenAddress,
    htlc_address: asset.native ? asset.chain.nativeProgramId : asset.chain.splProgramId,
  }),
  solverAddress: (solver) => solver.addresses.solana,
  solverAddressProblem: (address) =>
    solanaAddressProblem(address) === null ? null : "is not a Solana address",
  sourceOwnerOptional: false,
  nativeSourceInitiatedByUser: false,
  initiateDetectSeconds: (deadlines) => deadlines.initiateDetectSeconds,
  withDelegate: (_request, side) => side,
};
