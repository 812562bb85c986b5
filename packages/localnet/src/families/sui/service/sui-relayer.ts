/**
 * Transactions the service's relayer account pays for on one Sui chain: redeems of destinations with the
 * held secret. Each is dry-run first (the account's build does, for its budget), so a call that would
 * abort is refused with the module's abort instead of paying gas for a failure. Sends run one at a time:
 * the relayer's gas coin is an owned object, and two transactions in flight on one version would lock it
 * (equivocation) until the epoch ends.
 */
import PQueue from "p-queue";
import { Transaction } from "@mysten/sui/transactions";
import { addRedeem, type SuiSwapTarget } from "htlc-solver/chains/sui/ptb.js";
import { LocalSuiAccount, SuiDryRunFailed } from "../chain/local-sui-account.js";
import { RelayRejectedError } from "../../../service/chains/relay-error.js";
import type { LocalServiceSuiChainConfig } from "./sui-config.js";

export class SuiRelayer {
  readonly #account: LocalSuiAccount;
  readonly #queue = new PQueue({ concurrency: 1 });

  constructor(config: LocalServiceSuiChainConfig) {
    this.#account = new LocalSuiAccount(config.rpcUrl, config.relayerPrivateKey, config.packageId);
  }

  /** Redeems the order to its stored redeemer with the secret; returns the digest once executed. */
  redeem(target: SuiSwapTarget, swapId: string, secret: string): Promise<string> {
    const tx = new Transaction();
    addRedeem(tx, target, Buffer.from(swapId, "hex"), Buffer.from(secret, "hex"));
    // An executed redeem is reported by its digest whatever its status: the watch loop reads the outcome.
    return this.#queue.add(async () => {
      try {
        return (await this.#account.execute(tx)).digest;
      } catch (error) {
        if (error instanceof SuiDryRunFailed)
          throw new RelayRejectedError(`redeem would fail: ${error.error}`);
        throw error;
      }
    });
  }

  async close(): Promise<void> {
    this.#queue.clear();
    await this.#queue.onIdle();
  }
}
