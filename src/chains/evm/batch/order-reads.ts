/**
 * Reads of HTLC orders (`orders(bytes32)`) asked for in the same turn of the event loop go out as one
 * Multicall3 `aggregate3` call, so a round over many orders costs a few RPC calls per chain instead of
 * one per order, and every order of one call is read at the same block. Where the code at Multicall3's
 * address is not Multicall3's, or there is none (multicall3-code.ts), each order is read on its own.
 */
import { decodeFunctionResult, encodeFunctionData, type Address, type Hex, type PublicClient } from "viem";
import { htlcAbi } from "../htlc-abi.js";
import { aggregate3Data, decodeAggregate3, MULTICALL3_ADDRESS } from "./multicall3.js";
import type { Multicall3Check } from "./multicall3-code.js";

/** The fields `orders(bytes32)` returns, in order. */
export type StoredOrderTuple = readonly [Address, Address, bigint, bigint, bigint, bigint];

interface PendingRead {
  htlc: Address;
  orderId: Hex;
  resolve: (order: StoredOrderTuple) => void;
  reject: (error: unknown) => void;
}

/** Orders one aggregate3 call reads at most; well inside any node's eth_call gas and response limits. */
export const MAX_ORDERS_PER_READ = 200;

export class BatchedOrderReads {
  private pending: PendingRead[] = [];
  private scheduled = false;

  constructor(
    private readonly client: Pick<PublicClient, "call" | "readContract">,
    private readonly multicall3: Pick<Multicall3Check, "usable">,
  ) {}

  read(htlc: Address, orderId: Hex): Promise<StoredOrderTuple> {
    return new Promise((resolve, reject) => {
      this.pending.push({ htlc, orderId, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const reads = this.pending;
    this.pending = [];
    this.scheduled = false;
    let batched: boolean;
    try {
      batched = reads.length > 1 && (await this.multicall3.usable());
    } catch {
      batched = false;
    }
    if (!batched) {
      await Promise.all(reads.map((read) => this.readAlone(read)));
      return;
    }
    const chunks: PendingRead[][] = [];
    for (let i = 0; i < reads.length; i += MAX_ORDERS_PER_READ)
      chunks.push(reads.slice(i, i + MAX_ORDERS_PER_READ));
    await Promise.all(chunks.map((chunk) => this.readTogether(chunk)));
  }

  private async readAlone(read: PendingRead): Promise<void> {
    try {
      read.resolve(
        await this.client.readContract({
          address: read.htlc,
          abi: htlcAbi,
          functionName: "orders",
          args: [read.orderId],
        }),
      );
    } catch (error) {
      read.reject(error);
    }
  }

  private async readTogether(reads: PendingRead[]): Promise<void> {
    let results;
    try {
      const { data } = await this.client.call({
        to: MULTICALL3_ADDRESS,
        data: aggregate3Data(
          reads.map((r) => ({
            target: r.htlc,
            data: encodeFunctionData({ abi: htlcAbi, functionName: "orders", args: [r.orderId] }),
          })),
        ),
      });
      results = decodeAggregate3(data ?? "0x");
    } catch (error) {
      for (const read of reads) read.reject(error);
      return;
    }
    reads.forEach((read, i) => {
      const result = results[i];
      if (result === undefined || !result.success) {
        read.reject(new Error(`reading order ${read.orderId} of HTLC ${read.htlc} failed inside a batch`));
        return;
      }
      try {
        read.resolve(decodeFunctionResult({ abi: htlcAbi, functionName: "orders", data: result.returnData }));
      } catch (error) {
        read.reject(error);
      }
    });
  }
}
