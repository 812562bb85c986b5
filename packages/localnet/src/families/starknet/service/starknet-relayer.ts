/**
 * Transactions the service's relayer account pays for on one Starknet chain. Each is estimated first (the
 * node runs it), so a call that would fail is refused with the contract's own assert message instead of
 * paying for a reverted transaction; sends run one at a time, each with the next nonce after the
 * relayer's transactions still waiting, so a redeem and a relay sent together do not take one nonce.
 */
import PQueue from "p-queue";
import { feltHex } from "htlc-solver/chains/starknet/felt.js";
import type { ContractCall } from "htlc-solver/chains/starknet/htlc-calls.js";
import { LocalStarknetAccount, StarknetNodeError } from "../chain/local-account.js";
import { RelayRejectedError } from "../../../service/chains/relay-error.js";
import type { LocalServiceStarknetChainConfig } from "./starknet-config.js";

/** The node's codes for a transaction that would fail when run (spec v0.9 errors). */
const WOULD_FAIL = new Set([40, 41]);
const INVALID_TRANSACTION_NONCE = 52;

export class StarknetRelayer {
  readonly #account: LocalStarknetAccount;
  readonly #queue = new PQueue({ concurrency: 1 });
  /** The nonce after the relayer's last accepted transaction; null until one is sent. */
  #next: bigint | null = null;

  constructor(config: LocalServiceStarknetChainConfig) {
    this.#account = new LocalStarknetAccount(
      config.rpcUrl,
      BigInt(config.relayerAddress),
      config.relayerPrivateKey,
    );
  }

  /** Sends the calls as one transaction once the node accepted it; returns its hash (not waiting for a block). */
  send(what: string, calls: readonly ContractCall[]): Promise<string> {
    return this.#queue.add(async () => {
      try {
        return await this.#send(calls);
      } catch (error) {
        if (!(error instanceof StarknetNodeError)) throw error;
        if (WOULD_FAIL.has(error.code))
          throw new RelayRejectedError(`${what} would fail: ${describe(error)}`);
        if (error.code !== INVALID_TRANSACTION_NONCE) throw error;
        // A transaction of the relayer left the node's queue unincluded: count from the chain again.
        this.#next = null;
        return this.#send(calls);
      }
    });
  }

  async close(): Promise<void> {
    this.#queue.clear();
    await this.#queue.onIdle();
  }

  async #send(calls: readonly ContractCall[]): Promise<string> {
    const onChain = await this.#account.nonce();
    const nonce = this.#next !== null && this.#next > onChain ? this.#next : onChain;
    const hash = await this.#account.send(calls, { nonce });
    this.#next = nonce + 1n;
    return feltHex(hash);
  }
}

/** The node's execution error without the JSON around it, where it has one. */
function describe(error: StarknetNodeError): string {
  const data = error.data as { execution_error?: unknown } | undefined;
  return typeof data?.execution_error === "string" ? data.execution_error : error.message;
}
