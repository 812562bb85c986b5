/**
 * A localnet user's Solana wallet: locks a Solana source by calling the HTLC program (funder and rent
 * sponsor itself), redeems a Solana destination with its own secret, reads its balances, and waits for
 * its transactions by polling (the local cluster has no WebSocket endpoint).
 */
import type { Keypair, PublicKey } from "@solana/web3.js";
import {
  resolveSolanaAsset,
  type SolanaAsset,
  type SolanaAssetsConfig,
} from "htlc-solver/chains/solana/assets.js";
import { readSolanaSecretKey } from "htlc-solver/chains/solana/keypair.js";
import { htlcInterfaceOf, type SolanaHtlcInterface } from "htlc-solver/chains/solana/htlc-interface.js";
import { SolanaRpc } from "htlc-solver/chains/solana/rpc.js";
import { signDraft, wireOf } from "htlc-solver/chains/solana/signed-tx.js";
import {
  associatedTokenAddress,
  createAssociatedTokenAccountIdempotentInstruction,
  decodeTokenAccount,
} from "htlc-solver/chains/solana/spl-token.js";
import { solanaSwapId } from "htlc-solver/chains/solana/swap-id.js";
import { hexBytes, swapTermsOf } from "htlc-solver/chains/solana/swap-params.js";
import { recordParams } from "htlc-solver/orderbook/record-params.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { LocalnetSolanaChainDescriptor } from "./solana-descriptor.js";

/** Units a user's HTLC call may use: an SPL initiate creating its mint's vault fits well. */
const USER_UNIT_LIMIT = 100_000n;

export class SolanaUserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SolanaUserError";
  }
}

export class SolanaUserWallet {
  readonly keypair: Keypair;
  readonly rpc: SolanaRpc;
  readonly #chain: SolanaAssetsConfig;
  /** The HTLC programs' version the chain runs: where swaps live and the instructions that move them. */
  readonly htlc: SolanaHtlcInterface;

  constructor(
    secretKey: string,
    private readonly descriptor: LocalnetSolanaChainDescriptor,
  ) {
    const reading = readSolanaSecretKey(secretKey);
    if ("problem" in reading) throw new SolanaUserError(`the user's Solana key ${reading.problem}`);
    this.keypair = reading.keypair;
    this.rpc = new SolanaRpc({
      name: descriptor.name,
      rpcUrls: [descriptor.rpcUrl],
      rpcTimeoutMs: 10_000,
      maxHeadLagBlocks: 150,
      minBlockTimeMs: 400,
    });
    this.htlc = htlcInterfaceOf(descriptor.programVersion);
    this.#chain = {
      name: descriptor.name,
      nativeProgramId: descriptor.nativeProgramId,
      splProgramId: descriptor.splProgramId,
      assets: descriptor.assets.map((a) => ({ ...a, chain: descriptor.name })),
    };
  }

  get address(): string {
    return this.keypair.publicKey.toBase58();
  }

  asset(assetId: string): SolanaAsset {
    return resolveSolanaAsset(this.#chain, assetId);
  }

  /**
   * Locks a source swap, after checking that the record's swap id is the one its terms give and that
   * the user is its initiator: the user funds the HTLC and sponsors its rent.
   */
  async initiate(swap: SwapRecord): Promise<string> {
    const params = recordParams(swap);
    if (swap.initiator !== this.address) {
      throw new SolanaUserError(`swap ${swap.swap_id} names ${swap.initiator} as initiator, not this user`);
    }
    const expected = solanaSwapId(
      BigInt(this.descriptor.chainId),
      hexBytes(swap.secret_hash, 32, "secret hash"),
      this.keypair.publicKey,
    );
    if (expected !== swap.swap_id) {
      throw new SolanaUserError(`swap id ${swap.swap_id} is not the one its terms give (${expected})`);
    }
    const asset = this.asset(swap.asset);
    return this.send([this.htlc.fill(asset, swapTermsOf(params), this.keypair.publicKey)]);
  }

  /** Redeems a destination swap to its stored redeemer (this user) with the user's own secret. */
  async redeem(swap: SwapRecord, secret: string): Promise<string> {
    const asset = this.asset(swap.asset);
    const address = this.htlc.swapAddress(asset, swapTermsOf(recordParams(swap)));
    const { account } = await this.rpc.getAccount(address, "confirmed");
    const live = account === null ? null : this.htlc.decodeSwap(asset, address, account);
    if (live === null) throw new SolanaUserError(`no live swap at ${address.toBase58()} to redeem`);
    const secretBytes = hexBytes(secret.replace(/^0x/, ""), 32, "secret");
    const instructions = [this.htlc.redeem(asset, live, secretBytes)];
    if (asset.mint !== null) {
      instructions.unshift(
        createAssociatedTokenAccountIdempotentInstruction(this.keypair.publicKey, live.redeemer, asset.mint),
      );
    }
    return this.send(instructions);
  }

  /** Lamports, or token units in the user's associated token account. */
  async balance(assetId: string): Promise<bigint> {
    const asset = this.asset(assetId);
    if (asset.mint === null) return (await this.rpc.getBalance(this.keypair.publicKey, "processed")).lamports;
    return tokenBalance(this.rpc, associatedTokenAddress(this.keypair.publicKey, asset.mint));
  }

  /** Signs and sends (with preflight), then waits until the transaction is confirmed; returns its signature. */
  async send(instructions: Parameters<typeof signDraft>[1]["instructions"]): Promise<string> {
    const latest = await this.rpc.getLatestBlockhash("confirmed");
    const signed = signDraft(
      this.descriptor.name,
      {
        instructions,
        blockhash: latest.blockhash,
        lastValidBlockHeight: latest.lastValidBlockHeight,
        computeUnitPriceMicroLamports: 0n,
        computeUnitLimit: USER_UNIT_LIMIT,
      },
      this.keypair,
    );
    await this.rpc.sendTransaction(wireOf(signed.raw));
    await this.waitConfirmed(signed.txHash);
    return signed.txHash;
  }

  async waitConfirmed(signature: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [status] = await this.rpc.getSignatureStatuses([signature]);
      if (status?.err !== null && status?.err !== undefined) {
        throw new SolanaUserError(`transaction ${signature} failed: ${JSON.stringify(status.err)}`);
      }
      if (status?.confirmationStatus === "confirmed" || status?.confirmationStatus === "finalized") return;
      if (Date.now() > deadline)
        throw new SolanaUserError(`transaction ${signature} was not confirmed in time`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

export async function tokenBalance(rpc: SolanaRpc, account: PublicKey): Promise<bigint> {
  const { account: info } = await rpc.getAccount(account, "processed");
  return info === null ? 0n : decodeTokenAccount(info.data).amount;
}
