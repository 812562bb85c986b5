/**
 * Sending transactions to a Starknet node from an account whose key is at hand (the local chain's test
 * users and tests): estimate, bounds with a margin, the nonce from `starknet_getNonce`, sign, submit, wait
 * for inclusion; and SNIP-12 signatures for `initiate_with_signature` and instant refunds. Plain `fetch`
 * JSON-RPC; starknet.js only for hashing and signing.
 */
import type { TypedData } from "starknet";
import { feltHex } from "./felt.js";
import type { ResourceBounds } from "./invoke-txn.js";
import { QUERY_OFFSET } from "./invoke-txn.js";
import { broadcastJson, executeCalldata, signInvoke, starkSign, type StarknetCall } from "./signed-invoke.js";
import { messageHash } from "./snip12.js";

export type { StarknetCall } from "./signed-invoke.js";

/** A JSON-RPC error answer, with the node's code, message and data. */
export class StarknetNodeError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly nodeMessage: string,
    readonly data: unknown,
  ) {
    super(
      `${method} failed with ${code} ${nodeMessage}${data === undefined ? "" : `: ${JSON.stringify(data)}`}`,
    );
    this.name = "StarknetNodeError";
  }
}

export interface FeeEstimate {
  l1_gas_consumed: string;
  l1_gas_price: string;
  l2_gas_consumed: string;
  l2_gas_price: string;
  l1_data_gas_consumed: string;
  l1_data_gas_price: string;
  overall_fee: string;
  unit: string;
}

export interface Receipt {
  transaction_hash: string;
  actual_fee: { amount: string; unit: string };
  execution_status: "SUCCEEDED" | "REVERTED";
  revert_reason?: string;
  finality_status: string;
  block_number: number;
  block_hash: string;
  events: { from_address: string; keys: string[]; data: string[] }[];
}

export interface SendOptions {
  nonce?: bigint;
  tip?: bigint;
  /** Exact bounds instead of the estimate with its margin. */
  resourceBounds?: ResourceBounds;
}

let requestId = 0;

export async function starknetRpc<T>(url: string, method: string, params: unknown): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++requestId, method, params }),
  });
  const body = (await response.json()) as {
    result?: T;
    error?: { code: number; message: string; data?: unknown };
  };
  if (body.error !== undefined)
    throw new StarknetNodeError(method, body.error.code, body.error.message, body.error.data);
  return body.result as T;
}

/** Amounts at 1.5× the estimate and prices at 2× the current ones, so a fee rise of up to 100% still includes it. */
export function boundsWithMargin(estimate: FeeEstimate): ResourceBounds {
  const amount = (v: string) => (BigInt(v) * 3n) / 2n;
  const price = (v: string) => BigInt(v) * 2n;
  return {
    l1Gas: { maxAmount: amount(estimate.l1_gas_consumed), maxPricePerUnit: price(estimate.l1_gas_price) },
    l2Gas: { maxAmount: amount(estimate.l2_gas_consumed), maxPricePerUnit: price(estimate.l2_gas_price) },
    l1DataGas: {
      maxAmount: amount(estimate.l1_data_gas_consumed),
      maxPricePerUnit: price(estimate.l1_data_gas_price),
    },
  };
}

const NO_BOUNDS: ResourceBounds = {
  l1Gas: { maxAmount: 0n, maxPricePerUnit: 0n },
  l2Gas: { maxAmount: 0n, maxPricePerUnit: 0n },
  l1DataGas: { maxAmount: 0n, maxPricePerUnit: 0n },
};

export class LocalStarknetAccount {
  private chainIdValue: bigint | undefined;

  constructor(
    readonly rpcUrl: string,
    readonly address: bigint,
    private readonly privateKey: string,
  ) {}

  rpc<T>(method: string, params: unknown): Promise<T> {
    return starknetRpc<T>(this.rpcUrl, method, params);
  }

  async chainId(): Promise<bigint> {
    this.chainIdValue ??= BigInt(await this.rpc<string>("starknet_chainId", []));
    return this.chainIdValue;
  }

  async nonce(): Promise<bigint> {
    return BigInt(await this.rpc<string>("starknet_getNonce", ["latest", feltHex(this.address)]));
  }

  async estimate(calls: readonly StarknetCall[], nonce: bigint): Promise<FeeEstimate> {
    const { tx } = signInvoke(
      {
        senderAddress: this.address,
        calldata: executeCalldata(calls),
        nonce,
        resourceBounds: NO_BOUNDS,
        tip: 0n,
        version: QUERY_OFFSET + 3n,
      },
      this.privateKey,
      await this.chainId(),
    );
    const [estimate] = await this.rpc<FeeEstimate[]>("starknet_estimateFee", [
      [broadcastJson(tx)],
      [],
      "latest",
    ]);
    if (estimate === undefined) throw new Error("starknet_estimateFee answered no estimate");
    return estimate;
  }

  /** Signs the invoke (estimating bounds unless given) and returns its RPC body and hash, not sent. */
  async prepare(calls: readonly StarknetCall[], options: SendOptions = {}) {
    const nonce = options.nonce ?? (await this.nonce());
    const resourceBounds = options.resourceBounds ?? boundsWithMargin(await this.estimate(calls, nonce));
    const { tx, hash } = signInvoke(
      {
        senderAddress: this.address,
        calldata: executeCalldata(calls),
        nonce,
        resourceBounds,
        tip: options.tip ?? 0n,
      },
      this.privateKey,
      await this.chainId(),
    );
    return { body: broadcastJson(tx), hash, tx };
  }

  /** Submits; resolves with the transaction hash once the node accepted it. */
  async send(calls: readonly StarknetCall[], options: SendOptions = {}): Promise<bigint> {
    const { body } = await this.prepare(calls, options);
    const { transaction_hash } = await this.rpc<{ transaction_hash: string }>(
      "starknet_addInvokeTransaction",
      [body],
    );
    return BigInt(transaction_hash);
  }

  async waitFor(hash: bigint, timeoutMs = 30_000, pollMs = 100): Promise<Receipt> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        return await this.rpc<Receipt>("starknet_getTransactionReceipt", [feltHex(hash)]);
      } catch (error) {
        const notYet = error instanceof StarknetNodeError && error.code === 29;
        if (!notYet || Date.now() > deadline) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  async execute(calls: readonly StarknetCall[], options: SendOptions = {}): Promise<Receipt> {
    return this.waitFor(await this.send(calls, options));
  }

  /** A SNIP-12 signature `[r, s]` by this account over the typed data. */
  signMessage(data: TypedData): [bigint, bigint] {
    return starkSign(messageHash(data, this.address), this.privateKey);
  }
}
