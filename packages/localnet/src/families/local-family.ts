/**
 * What the local service needs from one chain family, so that its generic code (configuration, asset
 * lookup, the chain seam, GET /v2/chains and /v2/assets, order requests) never asks which family a chain
 * is. Each family implements it in families/<family>/service/; families/registry.ts lists them.
 */
import type { Hex } from "viem";
import type { ServiceChain } from "../service/chains/service-chain.js";
import type {
  LocalServiceChainConfig,
  LocalServiceDeadlines,
  LocalServiceSolverConfig,
} from "../service/config.js";
import type { PlannedSide } from "../service/orders/order-request.js";
import type { ResolvedAsset } from "../service/registry.js";
import type { KeyStore } from "../service/store/key-store.js";

export type LocalFamilyName = LocalServiceChainConfig["family"];
export type LocalChainOf<F extends LocalFamilyName> = Extract<LocalServiceChainConfig, { family: F }>;
export type LocalAssetConfigOf<F extends LocalFamilyName> = LocalChainOf<F>["assets"][number];
export type LocalAssetOf<F extends LocalFamilyName> = Extract<ResolvedAsset, { family: F }>;

/** The HTLC and token schema fields of a chain in GET /v2/chains (docs/service-api.md). */
export interface ChainSchemas {
  supported_htlc_schemas: string[];
  supported_token_schemas: string[];
  htlc: { schema: string; address: string } | null;
  token: { schema: string } | null;
}

/** What the service's chain seam of a family is built from. */
export interface ServiceChainParts {
  relayerPrivateKey: Hex;
  keys: KeyStore;
}

export interface LocalServiceFamily<F extends LocalFamilyName> {
  readonly family: F;
  /** Checks the family's own keys of a chain; throws LocalServiceConfigError naming the key. */
  validateChain(chain: LocalChainOf<F>): void;
  /** Whether an asset of this chain is the chain's own coin rather than a token. */
  isNative(asset: LocalChainOf<F>["assets"][number]): boolean;
  createServiceChain(chain: LocalChainOf<F>, parts: ServiceChainParts): ServiceChain;
  /** The chain's id in the API: the chain id, or a Bitcoin network's name. */
  apiChainId(chain: LocalChainOf<F>): string;
  apiSchemas(chain: LocalChainOf<F>, assets: readonly LocalAssetOf<F>[]): ChainSchemas;
  /** `token_address` and `htlc_address` of an asset in GET /v2/assets. */
  apiAssetAddresses(asset: LocalAssetOf<F>): { token_address: string; htlc_address: string };
  /** The solver's address on this family, or undefined when it has none there. */
  solverAddress(solver: LocalServiceSolverConfig): string | undefined;
  /** What is wrong with a solver address on this family (ends a sentence naming it), or null. */
  solverAddressProblem?(address: string): string | null;
  /** Whether the source side of an order request may leave out its owner (a deposit address pays in). */
  readonly sourceOwnerOptional: boolean;
  /** Whether a native-coin source is initiated by the user on chain, never by a relayed signature. */
  readonly nativeSourceInitiatedByUser: boolean;
  /** How long an order waits for its source initiate on this family before it expires. */
  initiateDetectSeconds(deadlines: LocalServiceDeadlines): number;
  /** An order side as planned, with the keys the family needs the service to hold (Bitcoin delegates). */
  withDelegate(
    request: Record<string, unknown>,
    side: PlannedSide,
    field: "source" | "destination",
    clientSecretHash: string | null,
  ): PlannedSide;
}
