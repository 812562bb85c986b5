/**
 * The service's view of a Solana chain: base58 addresses (compared exactly), the API's Solana swap ids,
 * the watcher, and the service redeem of a destination with the held secret, paid by the chain's relayer
 * key. Users initiate Solana sources themselves, by calling the HTLC program: no relayed initiate.
 */
import type { Keypair } from "@solana/web3.js";
import { solanaAddress, solanaAddressProblem } from "htlc-solver/chains/solana/address.js";
import { readSolanaSecretKey } from "htlc-solver/chains/solana/keypair.js";
import { htlcInterfaceOf } from "htlc-solver/chains/solana/htlc-interface.js";
import { isAlreadyProcessed, SolanaRpc } from "htlc-solver/chains/solana/rpc.js";
import { SolanaRpcError } from "htlc-solver/chains/solana/rpc-endpoint.js";
import { signDraft, wireOf } from "htlc-solver/chains/solana/signed-tx.js";
import {
  associatedTokenAddress,
  createAssociatedTokenAccountIdempotentInstruction,
} from "htlc-solver/chains/solana/spl-token.js";
import { solanaSwapId } from "htlc-solver/chains/solana/swap-id.js";
import { hexBytes } from "htlc-solver/chains/solana/swap-params.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { LocalServiceSolanaChainConfig } from "./solana-config.js";
import { RelayRejectedError } from "../../../service/chains/relay-error.js";
import type { ServiceChain, SwapTerms, TxOutcome } from "../../../service/chains/service-chain.js";
import { swapOfRecord } from "./solana-swap-of.js";
import { SolanaWatcher } from "./solana-watcher.js";

/** Units the service's redeem may use: an SPL redeem and the payee's token account creation fit well. */
const REDEEM_UNIT_LIMIT = 100_000n;

export class SolanaServiceChain implements ServiceChain {
  readonly watcher: SolanaWatcher;
  readonly signedInitiate = null;
  readonly userRefunds = null;
  readonly #rpc: SolanaRpc;
  readonly #relayer: Keypair;
  /** Redeems the service sent: until when each can still land (block height). */
  readonly #sent = new Map<string, bigint>();

  constructor(readonly config: LocalServiceSolanaChainConfig) {
    this.#rpc = new SolanaRpc({
      name: config.name,
      rpcUrls: [config.rpcUrl],
      rpcTimeoutMs: 10_000,
      maxHeadLagBlocks: 150,
      minBlockTimeMs: config.blockTimeMs,
    });
    const key = readSolanaSecretKey(config.relayerSecretKey);
    if ("problem" in key) throw new Error(`chain ${config.name}: relayerSecretKey ${key.problem}`);
    this.#relayer = key.keypair;
    this.watcher = new SolanaWatcher(config, this.#rpc);
  }

  isValidAddress(address: string): boolean {
    return solanaAddressProblem(address) === null;
  }

  solverParty(value: string): string | null {
    return this.isValidAddress(value) ? value : null;
  }

  normalizeAddress(address: string): string {
    return address;
  }

  /** Base58 is case-sensitive: an address is its own key. */
  addressKey(address: string): string {
    return address;
  }

  swapId(terms: SwapTerms): string {
    return solanaSwapId(
      BigInt(this.config.chainId),
      hexBytes(terms.secretHash, 32, "secret hash"),
      solanaAddress(terms.initiator, `${terms.side} initiator`),
    );
  }

  /** The HTLC program the user calls to lock the source (SOL: the native program; tokens: the SPL one). */
  depositTarget(terms: SwapTerms): string {
    return terms.asset.native ? this.config.nativeProgramId : this.config.splProgramId;
  }

  async isInitiated(swap: SwapRecord): Promise<boolean> {
    const { asset, address } = swapOfRecord(this.config, swap);
    const { account } = await this.#rpc.getAccount(address, "confirmed");
    const htlc = htlcInterfaceOf(this.config.programVersion);
    return account !== null && htlc.decodeSwap(asset, address, account) !== null;
  }

  /** Redeems to the stored redeemer with the held secret; the relayer pays the fee (and a payee token account). */
  async redeem(swap: SwapRecord, secret: string): Promise<string> {
    const { asset, address } = swapOfRecord(this.config, swap);
    const { account } = await this.#rpc.getAccount(address, "confirmed");
    const htlc = htlcInterfaceOf(this.config.programVersion);
    const live = account === null ? null : htlc.decodeSwap(asset, address, account);
    if (live === null) throw new RelayRejectedError(`no live swap at ${address.toBase58()} to redeem`);
    const instructions = [htlc.redeem(asset, live, hexBytes(secret, 32, "secret"))];
    if (asset.mint !== null) {
      const payee = await this.#rpc.getAccount(
        associatedTokenAddress(live.redeemer, asset.mint),
        "confirmed",
      );
      if (payee.account === null) {
        instructions.unshift(
          createAssociatedTokenAccountIdempotentInstruction(
            this.#relayer.publicKey,
            live.redeemer,
            asset.mint,
          ),
        );
      }
    }
    const latest = await this.#rpc.getLatestBlockhash("confirmed");
    const signed = signDraft(
      this.config.name,
      {
        instructions,
        blockhash: latest.blockhash,
        lastValidBlockHeight: latest.lastValidBlockHeight,
        computeUnitPriceMicroLamports: 0n,
        computeUnitLimit: REDEEM_UNIT_LIMIT,
      },
      this.#relayer,
    );
    try {
      await this.#rpc.sendTransaction(wireOf(signed.raw));
    } catch (error) {
      if (!isAlreadyProcessed(error)) {
        if (error instanceof SolanaRpcError)
          throw new RelayRejectedError(`redeem would fail: ${error.nodeMessage}`);
        throw error;
      }
    }
    this.#sent.set(signed.txHash, latest.lastValidBlockHeight);
    return signed.txHash;
  }

  /** Landed (confirmed) or failed by its status; dropped once its blockhash expired unlanded. */
  async txOutcome(txHash: string): Promise<TxOutcome> {
    const [status] = await this.#rpc.getSignatureStatuses([txHash]);
    if (status === null || status === undefined) {
      const lastValid = this.#sent.get(txHash);
      if (lastValid === undefined) return "dropped";
      return (await this.#rpc.getBlockHeight("finalized")) > lastValid ? "dropped" : "pending";
    }
    if (status.confirmationStatus === "processed") return "pending";
    return status.err === null || status.err === undefined ? "success" : "reverted";
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
