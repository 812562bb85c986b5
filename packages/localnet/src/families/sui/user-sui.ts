/**
 * A localnet user's Sui account: locks a Sui source with the initiate's programmable transaction (the
 * create-order answer's `ptb_bytes`, or the same kind built from the swap record), completed with sender
 * and gas and signed, as the published docs show; redeems a Sui destination with its own secret, refunds
 * an expired source, and reads balances. Gas is paid in SUI from the account.
 */
import { Transaction } from "@mysten/sui/transactions";
import { computeSuiSwapId } from "htlc-solver/chains/sui/order-id.js";
import { SuiRpc } from "htlc-solver/chains/sui/rpc.js";
import { addRedeem, addRefund, initiateKindBytes, type SuiSwapTarget } from "htlc-solver/chains/sui/ptb.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import { LocalSuiAccount } from "./chain/local-sui-account.js";
import type { LocalnetSuiAccount, LocalnetSuiChainDescriptor } from "./sui-descriptor.js";

export class SuiUserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SuiUserError";
  }
}

export class SuiUserWallet {
  readonly rpc: SuiRpc;
  readonly local: LocalSuiAccount;

  constructor(
    readonly account: LocalnetSuiAccount,
    readonly chain: LocalnetSuiChainDescriptor,
  ) {
    this.rpc = new SuiRpc({
      name: chain.name,
      rpcUrls: [chain.rpcUrl],
      rpcTimeoutMs: 10_000,
      maxHeadLagBlocks: 40,
      maxHeadAgeMs: undefined,
    });
    this.local = new LocalSuiAccount(chain.rpcUrl, account.privateKey, chain.packageId);
  }

  get address(): string {
    return this.account.address;
  }

  asset(assetId: string) {
    const asset = this.chain.assets.find((a) => a.id === assetId);
    if (asset === undefined) throw new SuiUserError(`asset ${assetId} is not on ${this.chain.name}`);
    return asset;
  }

  /** Builds the swap's initiate kind (as the service's `ptb_bytes`), completes and sends it; returns the digest. */
  async initiate(swap: SwapRecord): Promise<string> {
    this.#checkSource(swap);
    const kind = await initiateKindBytes(
      this.#target(swap.asset),
      {
        initiator: swap.initiator,
        redeemer: swap.redeemer,
        secretHash: swap.secret_hash,
        amount: BigInt(swap.amount),
        timelock: BigInt(swap.timelock),
      },
      { kind: "gas" },
    );
    return this.executeKind(kind);
  }

  /** Completes a programmable transaction kind (`ptb_bytes`) with this account as sender and gas, and sends it. */
  async executeKind(ptbBytes: Uint8Array | readonly number[]): Promise<string> {
    return this.#succeeded(await this.local.executeKind(Uint8Array.from(ptbBytes)));
  }

  /** Redeems a destination to its stored redeemer (this account) with the user's own secret. */
  redeem(swap: SwapRecord, secret: string): Promise<string> {
    const tx = new Transaction();
    addRedeem(tx, this.#target(swap.asset), orderIdOf(swap), Buffer.from(secret.replace(/^0x/, ""), "hex"));
    return this.execute(tx);
  }

  /** Refunds an expired source to its initiator (this account). */
  refund(swap: SwapRecord): Promise<string> {
    const tx = new Transaction();
    addRefund(tx, this.#target(swap.asset), orderIdOf(swap));
    return this.execute(tx);
  }

  /** Units of an asset the account holds. */
  balance(assetId: string): Promise<bigint> {
    return this.rpc.balance(this.address, this.asset(assetId).coinType);
  }

  /** Sends the transaction and waits for its effects; throws when it failed. Returns its digest. */
  async execute(tx: Transaction): Promise<string> {
    return this.#succeeded(await this.local.execute(tx));
  }

  #succeeded(response: {
    digest: string;
    effects?: { status: { status: string; error?: string } } | null;
  }): string {
    const status = response.effects?.status;
    if (status?.status !== "success") {
      throw new SuiUserError(`transaction ${response.digest} failed: ${status?.error ?? "no effects"}`);
    }
    return response.digest;
  }

  #target(assetId: string): SuiSwapTarget {
    const asset = this.asset(assetId);
    return {
      packageId: this.chain.packageId,
      coinType: asset.coinType,
      registry: {
        objectId: asset.registryId,
        initialSharedVersion: BigInt(asset.registryInitialSharedVersion),
      },
    };
  }

  #checkSource(swap: SwapRecord): void {
    if (swap.initiator !== this.address) {
      throw new SuiUserError(`swap ${swap.swap_id} names ${swap.initiator} as initiator, not this user`);
    }
    const expected = computeSuiSwapId({
      initiator: swap.initiator,
      redeemer: swap.redeemer,
      secretHash: swap.secret_hash,
      timelock: BigInt(swap.timelock),
      amount: BigInt(swap.amount),
      registry: this.asset(swap.asset).registryId,
    });
    if (expected !== swap.swap_id) {
      throw new SuiUserError(`swap id ${swap.swap_id} is not the one its terms give (${expected})`);
    }
  }
}

function orderIdOf(swap: SwapRecord): Uint8Array {
  return Uint8Array.from(Buffer.from(swap.swap_id, "hex"));
}
