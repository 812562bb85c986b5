import { getAddress, zeroAddress, type Address, type PublicClient } from "viem";
import { absentHtlc, type ChainReader, type HtlcParams, type HtlcState } from "../chain.js";
import { resolveEvmAsset } from "./assets.js";
import { Multicall3Check } from "./batch/multicall3-code.js";
import { BatchedOrderReads } from "./batch/order-reads.js";
import { createEvmPublicClient, rpcPoolOf, strip0x, with0x } from "./client.js";
import {
  changedOrderIds,
  findRedeemedSecret,
  readFulfilment,
  type Fulfilment,
  type RedeemedSecret,
} from "./htlc-logs.js";
import { evmOrderId } from "./order-id.js";
import type { EvmChainConfig } from "./config.js";

/** Redeems kept by a reader: far more than the orders a solver follows at once. */
const KEPT_REDEEMS = 20_000;

/** The fields `orders(bytes32)` stores for one order. */
export interface EvmStoredOrder {
  initiator: Address;
  redeemer: Address;
  initiatedAt: bigint;
  timelock: bigint;
  amount: bigint;
  fulfilledAt: bigint;
}

export class EvmReader implements ChainReader {
  readonly family = "evm" as const;
  /** The v3 contracts refuse any secret but 32 bytes. */
  readonly secretLength = 32;
  readonly userKeyIsDelegate = false;
  readonly chain: string;
  readonly client: PublicClient;
  /** Orders read in the same turn share one Multicall3 call. */
  private readonly orders: BatchedOrderReads;
  /** Every HTLC of the chain's assets, resolved at the first watch of its events. */
  private htlcs: Address[] | null = null;
  /** Redeems already read, by HTLC, order and block; see `fulfilment`. */
  private readonly redeems = new Map<string, Fulfilment>();

  constructor(
    private readonly config: EvmChainConfig,
    client?: PublicClient,
    /** The chain's Multicall3 check, shared with its executor; one of its own when absent. */
    multicall3?: Multicall3Check,
  ) {
    this.chain = config.name;
    this.client = client ?? createEvmPublicClient(config);
    this.orders = new BatchedOrderReads(
      this.client,
      multicall3 ?? new Multicall3Check(this.client, config.name),
    );
  }

  /** Orders initiated, redeemed or refunded on any of this chain's HTLCs in the range: one eth_getLogs. */
  changedSwapIds(from: bigint, to: bigint): Promise<string[]> {
    this.htlcs ??= [
      ...new Set(this.config.assets.map((asset) => resolveEvmAsset(this.config, asset.id).htlc)),
    ];
    return changedOrderIds(this.client, this.htlcs, from, to);
  }

  /**
   * The latest block of an endpoint whose head is not stale (EndpointPool.freshHead). A client made
   * elsewhere has no endpoints to judge: its block number is taken as it is.
   */
  async tipHeight(): Promise<bigint> {
    const pool = rpcPoolOf(this.client);
    if (pool === null) return this.client.getBlockNumber({ cacheTime: 0 });
    return BigInt((await pool.freshHead("eth_getBlockByNumber")).height);
  }

  /** v3 order id of these parameters on the asset's HTLC, hex without 0x. */
  computeSwapId(params: HtlcParams): string {
    const { htlc } = resolveEvmAsset(this.config, params.asset);
    return strip0x(
      evmOrderId({
        chainId: BigInt(this.config.chainId),
        secretHash: with0x(params.secretHash),
        initiator: getAddress(params.initiator),
        redeemer: getAddress(params.redeemer),
        timelock: params.timelock,
        amount: params.amount,
        htlc,
      }),
    );
  }

  /** The stored order under a swap id (hex, with or without 0x) on the asset's HTLC. */
  async readOrder(asset: string, swapId: string): Promise<EvmStoredOrder> {
    const { htlc } = resolveEvmAsset(this.config, asset);
    const [initiator, redeemer, initiatedAt, timelock, amount, fulfilledAt] = await this.orders.read(
      htlc,
      with0x(swapId),
    );
    return { initiator, redeemer, initiatedAt, timelock, amount, fulfilledAt };
  }

  /**
   * State of the order under the stated `params.swapId`. Reading the stated id (not the recomputed one)
   * lets the planner name each field where the order and the chain disagree; it checks the id separately.
   */
  async readHtlc(params: HtlcParams): Promise<HtlcState> {
    const swapId = params.swapId;
    const order = await this.readOrder(params.asset, swapId);
    if (order.initiator === zeroAddress) return absentHtlc();
    const state: HtlcState = {
      locks: [
        {
          id: strip0x(swapId).toLowerCase(),
          fundingTx: null,
          value: order.amount,
          height: order.initiatedAt,
          // The contract refunds only when initiatedAt + timelock < block.number.
          refundableAtHeight: order.initiatedAt + order.timelock + 1n,
          worthSpending: true,
          spend: null,
        },
      ],
      onChain: {
        initiator: order.initiator,
        redeemer: order.redeemer,
        timelock: order.timelock,
        amount: order.amount,
      },
      secret: null,
      // The contract never takes the same order id again, whatever became of it.
      occupied: true,
    };
    if (order.fulfilledAt === 0n) return state;
    const { htlc } = resolveEvmAsset(this.config, params.asset);
    const fulfilment = await this.fulfilment(htlc, swapId, order.fulfilledAt);
    const spend = {
      kind: fulfilment.kind === "refunded" ? ("refund" as const) : ("redeem" as const),
      txid: fulfilment.txHash,
      height: order.fulfilledAt,
    };
    const locks = state.locks.map((lock) => ({ ...lock, spend }));
    return { ...state, locks, secret: fulfilment.kind === "refunded" ? null : fulfilment.secret };
  }

  /**
   * How an order was fulfilled at a block. A redeem is kept: an order followed until its other side
   * settles is read every round, and each read would cost an eth_getLogs. Keeping it is safe even across
   * a reorg: a moved fulfilment changes the block in the key, and a secret once revealed stays the
   * preimage of its hash whatever became of the block. A refund is read again every time.
   */
  private async fulfilment(htlc: Address, orderId: string, block: bigint): Promise<Fulfilment> {
    const key = `${htlc}:${strip0x(orderId).toLowerCase()}:${block}`;
    const kept = this.redeems.get(key);
    if (kept !== undefined) return kept;
    const fulfilment = await readFulfilment(this.client, htlc, orderId, block);
    if (fulfilment.kind === "redeemed") {
      if (this.redeems.size >= KEPT_REDEEMS) {
        const oldest = this.redeems.keys().next();
        if (oldest.done !== true) this.redeems.delete(oldest.value);
      }
      this.redeems.set(key, fulfilment);
    }
    return fulfilment;
  }

  /** The secret revealed by a redeem of this secret hash on the asset's HTLC within a block range. */
  findRedeemedSecret(
    asset: string,
    secretHash: string,
    fromBlock: bigint,
    toBlock: bigint,
  ): Promise<RedeemedSecret | null> {
    const { htlc } = resolveEvmAsset(this.config, asset);
    return findRedeemedSecret(this.client, { htlc, secretHash, fromBlock, toBlock });
  }
}
