/**
 * Sending transactions to a Sui node from a key at hand (the local chain's test users and tests): build
 * offline with an explicit gas coin, the reference gas price and a budget from a dry run plus a margin,
 * sign with the Ed25519 key, execute and wait for local execution. Plain `fetch` JSON-RPC; the SDK only
 * builds, encodes and signs. The AtomicSwap calls are those the service's users make (garden.js
 * `suiHTLC.ts`): `initiate` with a coin split off, `redeem`, `refund`, `instant_refund`, and `executeKind`
 * completes the service's `ptb_bytes` as its published quickstart shows.
 */
import type { CoinStruct, PaginatedCoins, SuiTransactionBlockResponse } from "@mysten/sui/client";
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519";
import { Transaction, type TransactionObjectArgument } from "@mysten/sui/transactions";
import { normalizeStructTag, SUI_CLOCK_OBJECT_ID, toBase64 } from "@mysten/sui/utils";

/** A JSON-RPC error answer, with the node's code and message. */
export class SuiNodeError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly nodeMessage: string,
  ) {
    super(`${method} failed with ${code} ${nodeMessage}`);
    this.name = "SuiNodeError";
  }
}

/** A dry run that failed: the transaction would abort, so it is not sent. */
export class SuiDryRunFailed extends Error {
  constructor(readonly error: string) {
    super(`dry run failed: ${error}`);
    this.name = "SuiDryRunFailed";
  }
}

let requestId = 0;

export async function suiRpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++requestId, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { code: number; message: string } };
  if (body.error !== undefined) throw new SuiNodeError(method, body.error.code, body.error.message);
  return body.result as T;
}

export interface SuiSendOptions {
  /** An exact budget: no dry run (a transaction expected to fail on chain is sent as it is). */
  gasBudget?: bigint;
  gasPrice?: bigint;
  /** Pay gas with these coins instead of the largest SUI coin. */
  gasPayment?: { objectId: string; version: string; digest: string }[];
}

export interface RegistryRef {
  registryId: string;
  initialSharedVersion: bigint;
}

export interface InitiateParams {
  registry: RegistryRef;
  coinType: string;
  initiator?: string;
  redeemer: string;
  secretHash: Uint8Array;
  amount: bigint;
  timelockMs: bigint;
  destinationData?: Uint8Array;
}

const SUI_TYPE = normalizeStructTag("0x2::sui::SUI");
/** Budget for the dry run that sizes the real one: ample, within any funded test account. */
const DRY_RUN_BUDGET = 50_000_000n;
const SHOW_ALL = {
  showEffects: true,
  showEvents: true,
  showObjectChanges: true,
  showBalanceChanges: true,
  showInput: true,
};

export class LocalSuiAccount {
  readonly keypair: Ed25519Keypair;
  readonly address: string;

  constructor(
    readonly rpcUrl: string,
    secretKey: string,
    readonly packageId: string,
  ) {
    this.keypair = Ed25519Keypair.fromSecretKey(secretKey);
    this.address = this.keypair.toSuiAddress();
  }

  rpc<T>(method: string, params: unknown[]): Promise<T> {
    return suiRpc<T>(this.rpcUrl, method, params);
  }

  async coins(coinType = SUI_TYPE): Promise<CoinStruct[]> {
    const coins: CoinStruct[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page: PaginatedCoins = await this.rpc("suix_getCoins", [this.address, coinType, cursor, 50]);
      coins.push(...page.data);
      if (!page.hasNextPage) return coins;
      cursor = page.nextCursor ?? null;
    }
  }

  private async largestSuiCoin(): Promise<CoinStruct> {
    const coins = await this.coins();
    const largest = coins.sort((a, b) => (BigInt(b.balance) > BigInt(a.balance) ? 1 : -1))[0];
    if (largest === undefined) throw new Error(`${this.address} holds no SUI coin to pay gas with`);
    return largest;
  }

  /** The transaction's BCS with sender, gas coin, price and budget set (sized by a dry run unless given). */
  async build(tx: Transaction, options: SuiSendOptions = {}): Promise<Uint8Array> {
    tx.setSender(this.address);
    tx.setGasPrice(options.gasPrice ?? BigInt(await this.rpc<string>("suix_getReferenceGasPrice", [])));
    const payment =
      options.gasPayment ??
      [await this.largestSuiCoin()].map((c) => ({
        objectId: c.coinObjectId,
        version: c.version,
        digest: c.digest,
      }));
    tx.setGasPayment(payment);
    if (options.gasBudget !== undefined) {
      tx.setGasBudget(options.gasBudget);
      return tx.build();
    }
    tx.setGasBudget(DRY_RUN_BUDGET);
    const dryRun = await this.rpc<{ effects: NonNullable<SuiTransactionBlockResponse["effects"]> }>(
      "sui_dryRunTransactionBlock",
      [toBase64(await tx.build())],
    );
    if (dryRun.effects.status.status !== "success")
      throw new SuiDryRunFailed(dryRun.effects.status.error ?? "");
    const used = dryRun.effects.gasUsed;
    // 20% over the dry run's computation and storage, as wallets add.
    tx.setGasBudget(((BigInt(used.computationCost) + BigInt(used.storageCost)) * 12n) / 10n);
    return tx.build();
  }

  async sign(bytes: Uint8Array): Promise<string> {
    return (await this.keypair.signTransaction(bytes)).signature;
  }

  /** Executes signed bytes and answers with effects, events, object and balance changes. */
  executeSigned(bytes: Uint8Array, signature: string): Promise<SuiTransactionBlockResponse> {
    return this.rpc("sui_executeTransactionBlock", [
      toBase64(bytes),
      [signature],
      SHOW_ALL,
      "WaitForLocalExecution",
    ]);
  }

  async execute(tx: Transaction, options: SuiSendOptions = {}): Promise<SuiTransactionBlockResponse> {
    const bytes = await this.build(tx, options);
    return this.executeSigned(bytes, await this.sign(bytes));
  }

  /** Completes a programmable transaction's BCS (`TransactionKind`, e.g. the service's `ptb_bytes`) and sends it. */
  executeKind(ptbBytes: Uint8Array | readonly number[], options: SuiSendOptions = {}) {
    return this.execute(Transaction.fromKind(Uint8Array.from(ptbBytes)), options);
  }

  /** Waits until the transaction is known to the node; with `checkpointed`, until it is in a checkpoint. */
  async waitFor(
    digest: string,
    checkpointed = false,
    timeoutMs = 30_000,
  ): Promise<SuiTransactionBlockResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const response = await this.rpc<SuiTransactionBlockResponse>("sui_getTransactionBlock", [
          digest,
          SHOW_ALL,
        ]);
        if (!checkpointed || response.checkpoint != null) return response;
      } catch (error) {
        if (!(error instanceof SuiNodeError) || error.code !== -32602) throw error;
      }
      if (Date.now() > deadline)
        throw new Error(
          `transaction ${digest} not ${checkpointed ? "checkpointed" : "known"} after ${timeoutMs} ms`,
        );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private registryArg(tx: Transaction, registry: RegistryRef) {
    return tx.sharedObjectRef({
      objectId: registry.registryId,
      initialSharedVersion: registry.initialSharedVersion.toString(),
      mutable: true,
    });
  }

  private clockArg(tx: Transaction) {
    return tx.sharedObjectRef({ objectId: SUI_CLOCK_OBJECT_ID, initialSharedVersion: "1", mutable: false });
  }

  /** A coin of exactly `amount`: split off the gas coin for SUI, else the owned coins merged and split. */
  private async coinOf(
    tx: Transaction,
    coinType: string,
    amount: bigint,
  ): Promise<TransactionObjectArgument> {
    if (normalizeStructTag(coinType) === SUI_TYPE) return tx.splitCoins(tx.gas, [amount])[0]!;
    const coins = (await this.coins(normalizeStructTag(coinType))).map((c) =>
      tx.objectRef({ objectId: c.coinObjectId, version: c.version, digest: c.digest }),
    );
    const [first, ...rest] = coins;
    if (first === undefined) throw new Error(`${this.address} holds no ${coinType}`);
    if (rest.length > 0) tx.mergeCoins(first, rest);
    return tx.splitCoins(first, [amount])[0]!;
  }

  private target(fn: string): string {
    return `${this.packageId}::AtomicSwap::${fn}`;
  }

  async initiateTx(params: InitiateParams): Promise<Transaction> {
    const tx = new Transaction();
    const coin = await this.coinOf(tx, params.coinType, params.amount);
    tx.moveCall({
      target: this.target("initiate"),
      typeArguments: [params.coinType],
      arguments: [
        this.registryArg(tx, params.registry),
        tx.pure.address(params.initiator ?? this.address),
        tx.pure.address(params.redeemer),
        tx.pure.vector("u8", Array.from(params.secretHash)),
        tx.pure.u64(params.amount),
        tx.pure.u256(params.timelockMs),
        tx.pure.vector("u8", Array.from(params.destinationData ?? new Uint8Array())),
        coin,
        this.clockArg(tx),
      ],
    });
    return tx;
  }

  async initiate(params: InitiateParams, options?: SuiSendOptions) {
    return this.execute(await this.initiateTx(params), options);
  }

  redeemTx(registry: RegistryRef, coinType: string, orderId: Uint8Array, secret: Uint8Array): Transaction {
    const tx = new Transaction();
    tx.moveCall({
      target: this.target("redeem"),
      typeArguments: [coinType],
      arguments: [
        this.registryArg(tx, registry),
        tx.pure.vector("u8", Array.from(orderId)),
        tx.pure.vector("u8", Array.from(secret)),
      ],
    });
    return tx;
  }

  redeem(
    registry: RegistryRef,
    coinType: string,
    orderId: Uint8Array,
    secret: Uint8Array,
    options?: SuiSendOptions,
  ) {
    return this.execute(this.redeemTx(registry, coinType, orderId, secret), options);
  }

  refund(registry: RegistryRef, coinType: string, orderId: Uint8Array, options?: SuiSendOptions) {
    const tx = new Transaction();
    tx.moveCall({
      target: this.target("refund"),
      typeArguments: [coinType],
      arguments: [
        this.registryArg(tx, registry),
        tx.pure.vector("u8", Array.from(orderId)),
        this.clockArg(tx),
      ],
    });
    return this.execute(tx, options);
  }

  instantRefund(registry: RegistryRef, coinType: string, orderId: Uint8Array, options?: SuiSendOptions) {
    const tx = new Transaction();
    tx.moveCall({
      target: this.target("instant_refund"),
      typeArguments: [coinType],
      arguments: [this.registryArg(tx, registry), tx.pure.vector("u8", Array.from(orderId))],
    });
    return this.execute(tx, options);
  }
}
