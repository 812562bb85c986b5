/**
 * A localnet user's Starknet account: locks a Starknet source by approving the HTLC and calling
 * `initiate` in one multicall, or by approving and signing the SNIP-12 `Initiate` the service relays;
 * redeems a Starknet destination with its own secret, refunds an expired source, and reads balances.
 * Fees are paid in STRK from the account.
 */
import { bytesToWords, feltHex, u256Of } from "htlc-solver/chains/starknet/felt.js";
import {
  approveCall,
  initiateCall,
  redeemCall,
  refundCall,
  SELECTORS,
  type ContractCall,
} from "htlc-solver/chains/starknet/htlc-calls.js";
import { computeStarknetSwapId } from "htlc-solver/chains/starknet/order-id.js";
import { StarknetRpc } from "htlc-solver/chains/starknet/rpc.js";
import { initiateTypedData } from "htlc-solver/chains/starknet/snip12.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import { LocalStarknetAccount } from "./chain/local-account.js";
import { initiateTermsOf } from "./starknet-calls.js";
import type { LocalnetStarknetAccount, LocalnetStarknetChainDescriptor } from "./starknet-descriptor.js";

export class StarknetUserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StarknetUserError";
  }
}

export class StarknetUserWallet {
  readonly rpc: StarknetRpc;
  readonly local: LocalStarknetAccount;

  constructor(
    readonly account: LocalnetStarknetAccount,
    readonly chain: LocalnetStarknetChainDescriptor,
  ) {
    this.rpc = new StarknetRpc({
      name: chain.name,
      chainId: chain.chainId,
      rpcUrls: [chain.rpcUrl],
      rpcTimeoutMs: 10_000,
      maxHeadLagBlocks: 10,
      minBlockTimeMs: 1000,
      maxBlockTimeMs: 2000,
      maxHeadAgeMs: undefined,
    });
    this.local = new LocalStarknetAccount(chain.rpcUrl, BigInt(account.address), account.privateKey);
  }

  get address(): string {
    return this.account.address;
  }

  asset(assetId: string) {
    const asset = this.chain.assets.find((a) => a.id === assetId);
    if (asset === undefined) throw new StarknetUserError(`asset ${assetId} is not on ${this.chain.name}`);
    return asset;
  }

  /** Approves the HTLC for the amount and initiates, in one transaction; returns its hash. */
  async initiate(swap: SwapRecord): Promise<string> {
    this.#checkSource(swap);
    const asset = this.asset(swap.asset);
    return this.execute([
      approveCall(asset.tokenAddress, asset.htlcAddress, BigInt(swap.amount)),
      initiateCall(asset.htlcAddress, initiateTermsOf(swap)),
    ]);
  }

  /** Approves the HTLC for the amount (the relayed initiate takes the tokens from this account); returns the hash. */
  async approveSource(swap: SwapRecord): Promise<string> {
    this.#checkSource(swap);
    const asset = this.asset(swap.asset);
    return this.execute([approveCall(asset.tokenAddress, asset.htlcAddress, BigInt(swap.amount))]);
  }

  /** The account's signature of the swap's SNIP-12 `Initiate`, as a wallet gives it: its felts, hex. */
  signInitiate(swap: SwapRecord): string[] {
    const asset = this.asset(swap.asset);
    const data = initiateTypedData({
      layout: this.chain.orderIdLayout,
      chainId: this.chain.chainId,
      redeemer: swap.redeemer,
      amount: BigInt(swap.amount),
      timelock: BigInt(swap.timelock),
      secretHash: swap.secret_hash,
      htlc: asset.htlcAddress,
    });
    return this.local.signMessage(data).map(feltHex);
  }

  /** Redeems a destination to its stored redeemer (this account) with the user's own secret. */
  redeem(swap: SwapRecord, secret: string): Promise<string> {
    const asset = this.asset(swap.asset);
    const words = bytesToWords(Buffer.from(secret.replace(/^0x/, ""), "hex"));
    return this.execute([redeemCall(asset.htlcAddress, BigInt(`0x${swap.swap_id}`), words)]);
  }

  /** Refunds an expired source to its initiator (this account). */
  refund(swap: SwapRecord): Promise<string> {
    const asset = this.asset(swap.asset);
    return this.execute([refundCall(asset.htlcAddress, BigInt(`0x${swap.swap_id}`))]);
  }

  /** Token units of an asset the account holds. */
  balance(assetId: string): Promise<bigint> {
    return this.tokenBalance(this.asset(assetId).tokenAddress);
  }

  /** Units of any ERC20 the account holds (STRK, for its fees). */
  tokenBalance(token: string): Promise<bigint> {
    return starknetTokenBalance(this.rpc, token, this.address);
  }

  /** Sends the calls as one transaction and waits for its block; throws when it reverted. Returns its hash. */
  async execute(calls: readonly ContractCall[]): Promise<string> {
    const receipt = await this.local.execute(calls);
    if (receipt.execution_status !== "SUCCEEDED") {
      throw new StarknetUserError(
        `transaction ${receipt.transaction_hash} reverted: ${receipt.revert_reason ?? ""}`,
      );
    }
    return receipt.transaction_hash;
  }

  #checkSource(swap: SwapRecord): void {
    if (BigInt(swap.initiator) !== BigInt(this.address)) {
      throw new StarknetUserError(`swap ${swap.swap_id} names ${swap.initiator} as initiator, not this user`);
    }
    const expected = computeStarknetSwapId({
      layout: this.chain.orderIdLayout,
      chainId: this.chain.chainId,
      initiator: swap.initiator,
      redeemer: swap.redeemer,
      timelock: BigInt(swap.timelock),
      amount: BigInt(swap.amount),
      secretHash: swap.secret_hash,
      htlc: this.asset(swap.asset).htlcAddress,
    });
    if (expected !== swap.swap_id) {
      throw new StarknetUserError(`swap id ${swap.swap_id} is not the one its terms give (${expected})`);
    }
  }
}

/** ERC20 `balance_of(owner)` at the latest block. */
export async function starknetTokenBalance(rpc: StarknetRpc, token: string, owner: string): Promise<bigint> {
  const [low, high] = await rpc.call(token, SELECTORS.balanceOf, [BigInt(owner)]);
  if (low === undefined || high === undefined)
    throw new StarknetUserError(`balance_of of ${token} answered no u256`);
  return u256Of(low, high);
}
