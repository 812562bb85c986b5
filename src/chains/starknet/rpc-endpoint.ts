/**
 * One Starknet JSON-RPC endpoint spoken to over HTTP. Before its first request it must show the
 * configured chain id (`starknet_chainId`): an endpoint of another network is refused for good, so no
 * answer of it is ever read as this chain's. Node errors become `StarknetRpcError`s.
 */
import { EndpointFault } from "../rpc/errors.js";
import { JsonRpcEndpoint, type JsonRpcEndpointOptions } from "../rpc/json-rpc-endpoint.js";
import { StarknetRpcError } from "./errors.js";

export interface StarknetRpcEndpointOptions extends JsonRpcEndpointOptions {
  /** The configured chain id as the node writes it: the short string's felt, hex. */
  chainIdFelt: bigint;
  chainId: string;
}

export class StarknetRpcEndpoint extends JsonRpcEndpoint {
  readonly #chainIdFelt: bigint;
  readonly #chainId: string;
  #onNetwork: Promise<void> | null = null;

  constructor(options: StarknetRpcEndpointOptions) {
    super(options, {
      nodeError: (method, { code, message, data }) => new StarknetRpcError(method, code, message, data),
    });
    this.#chainIdFelt = options.chainIdFelt;
    this.#chainId = options.chainId;
  }

  override async request(method: string, params: unknown): Promise<unknown> {
    this.#onNetwork ??= this.#checkNetwork().catch((error: unknown) => {
      // Unreachable now is no verdict: asked again on the next request.
      if (!(error instanceof EndpointFault) || error.kind !== "refused") this.#onNetwork = null;
      throw error;
    });
    await this.#onNetwork;
    return super.request(method, params);
  }

  async #checkNetwork(): Promise<void> {
    const answer = await super.request("starknet_chainId", []);
    const stated = typeof answer === "string" && /^0x[0-9a-fA-F]{1,64}$/.test(answer) ? BigInt(answer) : null;
    if (stated !== this.#chainIdFelt) {
      throw new EndpointFault(
        this.label,
        "refused",
        `starknet_chainId answered ${JSON.stringify(answer).slice(0, 80)}, not ${this.#chainId}`,
      );
    }
  }
}
