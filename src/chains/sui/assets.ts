/**
 * A Sui asset resolved from config: its coin type and the registry that holds its orders, with the
 * registry's initial shared version (configured, or read from the node once and kept).
 */
import type { AssetConfig } from "../../config/common-chain.js";
import { sameMoveType } from "./address.js";
import { SuiActionError } from "./errors.js";
import type { SuiSwapTarget } from "./ptb.js";
import type { SuiRpc } from "./rpc.js";
import type { SuiChainConfig } from "./config.js";

export interface SuiAsset {
  id: string;
  coinType: string;
  registry: string;
  config: AssetConfig;
}

export function resolveSuiAsset(config: Pick<SuiChainConfig, "name" | "assets">, asset: string): SuiAsset {
  const found = config.assets.find((a) => a.id === asset);
  if (found === undefined)
    throw new SuiActionError(`asset ${asset} is not configured on Sui chain ${config.name}`);
  return { id: found.id, coinType: found.tokenAddress, registry: found.htlcAddress, config: found };
}

/** The module targets of a chain's assets; a registry's shared version is read once when not configured. */
export class SuiTargets {
  readonly #config: SuiChainConfig;
  readonly #rpc: SuiRpc;
  readonly #versions = new Map<string, bigint>();

  constructor(config: SuiChainConfig, rpc: SuiRpc) {
    this.#config = config;
    this.#rpc = rpc;
    for (const asset of config.assets) {
      const version = config.registryInitialSharedVersions[asset.symbol.toLowerCase()];
      if (version !== undefined) this.#versions.set(asset.htlcAddress, version);
    }
  }

  async of(assetId: string): Promise<SuiSwapTarget> {
    const asset = resolveSuiAsset(this.#config, assetId);
    let version = this.#versions.get(asset.registry);
    if (version === undefined) {
      version = await this.#readSharedVersion(asset);
      this.#versions.set(asset.registry, version);
    }
    return {
      packageId: this.#config.packageId,
      coinType: asset.coinType,
      registry: { objectId: asset.registry, initialSharedVersion: version },
    };
  }

  async #readSharedVersion(asset: SuiAsset): Promise<bigint> {
    const answer = await this.#rpc.getObject(asset.registry);
    const what = `${this.#config.name}: registry ${asset.registry} of ${asset.id}`;
    if (!("data" in answer)) throw new SuiActionError(`${what} does not exist`);
    const expected = `${this.#config.packageId}::AtomicSwap::OrdersRegistry<${asset.coinType}>`;
    if (!sameMoveType(answer.data.type, expected))
      throw new SuiActionError(
        `${what} is a ${answer.data.type ?? "object of unknown type"}, not ${expected}`,
      );
    const owner = answer.data.owner;
    if (owner === undefined || owner === "Immutable" || !("Shared" in owner))
      throw new SuiActionError(`${what} is not a shared object`);
    return BigInt(owner.Shared.initial_shared_version);
  }
}
