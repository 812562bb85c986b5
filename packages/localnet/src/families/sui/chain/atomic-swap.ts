/**
 * The `atomic_swapv1::AtomicSwap` Move module (code-423n4/2025-11-garden, sui/sources/main.move) as a
 * TypeScript model: `create_orders_registry`, `initiate`, `redeem`, `refund` and `instant_refund` with the
 * module's checks in its order and its abort codes, orders kept as dynamic fields of the registry (the
 * field's id derived as a real node derives it), and its events.
 */
import { bcs } from "@mysten/sui/bcs";
import type { SuiMoveNormalizedFunction } from "@mysten/sui/client";
import { deriveDynamicFieldID } from "@mysten/sui/utils";
import { sameBytes, sha256 } from "./bytes.js";
import { argumentError, ExecutionFailure, moveAbort, type MoveFunction } from "./execution-failure.js";
import { atomicSwapSignatures } from "./move-signatures.js";
import type { CallArgs, MoveCallContext, MoveModuleModel, PtbValue } from "./move-call.js";
import { CLOCK_ID, type SuiObject } from "./objects.js";
import { orderIdOf } from "./order-id.js";

export const ABORT = {
  INCORRECT_FUNDS: 1,
  ORDER_NOT_EXPIRED: 2,
  ZERO_ADDRESS_INITIATOR: 3,
  ZERO_ADDRESS_REDEEMER: 4,
  ORDER_NOT_INITIATED: 5,
  DUPLICATE_ORDER: 7,
  INCORRECT_SECRET: 8,
  INVALID_TIMELOCK: 9,
  ZERO_AMOUNT: 10,
  SAME_INITIATOR_REDEEMER: 11,
  INVALID_SECRET_HASH_LENGTH: 13,
  ORDER_FULFILLED: 14,
  SAME_FUNDER_REDEEMER: 15,
  SENDER_NOT_REDEEMER: 16,
} as const;

/** Seven days in ms: the longest timelock `initiate` accepts. */
export const MAX_TIMELOCK_MS = 604_800_000n;
const ZERO_ADDRESS = `0x${"0".repeat(64)}`;
const BYTES = bcs.vector(bcs.u8());
/** The public functions in the module's definition order (their index is the abort's `function`). */
const FUNCTIONS = ["create_orders_registry", "initiate", "refund", "redeem", "instant_refund"] as const;
type FunctionName = (typeof FUNCTIONS)[number];

/** The dynamic field id of an order under a registry: the name is the order id, a `vector<u8>`. */
export function orderFieldId(registryId: string, orderId: Uint8Array): string {
  return deriveDynamicFieldID(registryId, "vector<u8>", BYTES.serialize(Array.from(orderId)).toBytes());
}

export class AtomicSwapModel implements MoveModuleModel {
  readonly name = "AtomicSwap";

  private readonly signatures: Record<string, SuiMoveNormalizedFunction>;

  constructor(private readonly packageId: string) {
    this.signatures = atomicSwapSignatures(packageId);
  }

  signature(fn: string): SuiMoveNormalizedFunction | undefined {
    return this.has(fn) ? this.signatures[fn] : undefined;
  }

  has(fn: string): boolean {
    return (FUNCTIONS as readonly string[]).includes(fn);
  }

  call(fn: string, context: MoveCallContext): PtbValue[] {
    const name = fn as FunctionName;
    const where: MoveFunction = {
      packageId: this.packageId,
      module: this.name,
      name,
      index: FUNCTIONS.indexOf(name),
    };
    if (context.typeArguments.length !== 1) throw new ExecutionFailure("TypeArityMismatch");
    const coinType = context.typeArguments[0]!;
    const arity = { create_orders_registry: 0, initiate: 9, refund: 3, redeem: 3, instant_refund: 2 }[name];
    if (context.args.count !== arity) throw new ExecutionFailure("ArityMismatch");
    const abort = (code: number, rank: number) => moveAbort(where, code, rank);
    switch (name) {
      case "create_orders_registry":
        return this.createRegistry(context, coinType);
      case "initiate":
        return this.initiate(context, coinType, abort);
      case "redeem":
        return this.redeem(context, coinType, abort);
      case "refund":
        return this.refund(context, coinType, abort);
      case "instant_refund":
        return this.instantRefund(context, coinType, abort);
    }
  }

  private createRegistry({ execution }: MoveCallContext, coinType: string): PtbValue[] {
    const registry = execution.create(
      { kind: "shared", initialSharedVersion: 0n },
      { kind: "registry", coinType },
    );
    this.emit(
      execution,
      "RegistryCreated",
      { registry_id: registry.id },
      bcs.Address.serialize(registry.id).toBytes(),
    );
    return [{ kind: "pure", bytes: bcs.Address.serialize(registry.id).toBytes() }];
  }

  private registryArg(args: CallArgs, coinType: string): SuiObject {
    const registry = args.object(0, true);
    if (registry.contents.kind !== "registry" || registry.contents.coinType !== coinType)
      throw argumentError(0, "TypeMismatch");
    return registry;
  }

  private clockMs(args: CallArgs, index: number, execution: MoveCallContext["execution"]): bigint {
    const clock = args.object(index, false);
    if (clock.id !== CLOCK_ID) throw argumentError(index, "TypeMismatch");
    return execution.timestampMs;
  }

  private initiate(
    { execution, args }: MoveCallContext,
    coinType: string,
    abort: (code: number, rank: number) => ExecutionFailure,
  ): PtbValue[] {
    const registry = this.registryArg(args, coinType);
    const initiator = args.pure(1, bcs.Address);
    const redeemer = args.pure(2, bcs.Address);
    const secretHash = Uint8Array.from(args.pure(3, BYTES));
    const amount = BigInt(args.pure(4, bcs.u64()));
    const timelock = BigInt(args.pure(5, bcs.u256()));
    const destinationData = args.pure(6, BYTES);
    const coins = args.objectByValue(7);
    if (coins.contents.kind !== "coin" || coins.contents.coinType !== coinType)
      throw argumentError(7, "TypeMismatch");
    const now = this.clockMs(args, 8, execution);

    if (initiator === ZERO_ADDRESS) throw abort(ABORT.ZERO_ADDRESS_INITIATOR, 1);
    if (redeemer === ZERO_ADDRESS) throw abort(ABORT.ZERO_ADDRESS_REDEEMER, 2);
    if (initiator === redeemer) throw abort(ABORT.SAME_INITIATOR_REDEEMER, 3);
    if (execution.sender === redeemer) throw abort(ABORT.SAME_FUNDER_REDEEMER, 4);
    if (amount === 0n) throw abort(ABORT.ZERO_AMOUNT, 5);
    if (timelock === 0n || timelock > MAX_TIMELOCK_MS) throw abort(ABORT.INVALID_TIMELOCK, 6);
    if (secretHash.length !== 32) throw abort(ABORT.INVALID_SECRET_HASH_LENGTH, 7);
    if (coins.contents.balance !== amount) throw abort(ABORT.INCORRECT_FUNDS, 8);
    const orderId = orderIdOf({ secretHash, initiator, redeemer, timelock, amount, registry: registry.id });
    const fieldId = orderFieldId(registry.id, orderId);
    if (execution.get(fieldId) !== undefined) throw abort(ABORT.DUPLICATE_ORDER, 9);

    execution.remove(coins.id, true);
    execution.put({
      id: fieldId,
      version: 0n,
      digest: "",
      owner: { kind: "object", parent: registry.id },
      contents: {
        kind: "order",
        coinType,
        orderId,
        order: {
          isFulfilled: false,
          initiator,
          redeemer,
          amount,
          initiatedAt: now,
          timelock,
          orderUid: execution.freshId(),
          coinUid: coins.id,
          coinBalance: coins.contents.balance,
        },
      },
      storageRebate: 0n,
      previousTransaction: "",
    });
    execution.put(registry);
    this.emit(
      execution,
      "Initiated",
      {
        order_id: Array.from(orderId),
        secret_hash: Array.from(secretHash),
        amount: amount.toString(),
        destination_data: destinationData,
      },
      bcs
        .struct("Initiated", {
          order_id: BYTES,
          secret_hash: BYTES,
          amount: bcs.u64(),
          destination_data: BYTES,
        })
        .serialize({
          order_id: Array.from(orderId),
          secret_hash: Array.from(secretHash),
          amount,
          destination_data: destinationData,
        })
        .toBytes(),
    );
    return [];
  }

  /** The order field named `orderId` under the registry, or abort 5 (`EOrderNotInitiated`). */
  private order(
    execution: MoveCallContext["execution"],
    registry: SuiObject,
    orderId: Uint8Array,
    notInitiated: ExecutionFailure,
  ) {
    const field = execution.get(orderFieldId(registry.id, orderId));
    if (field === undefined || field.contents.kind !== "order") throw notInitiated;
    return { field, contents: field.contents };
  }

  private redeem(
    { execution, args }: MoveCallContext,
    coinType: string,
    abort: (code: number, rank: number) => ExecutionFailure,
  ): PtbValue[] {
    const registry = this.registryArg(args, coinType);
    const orderId = Uint8Array.from(args.pure(1, BYTES));
    const secret = Uint8Array.from(args.pure(2, BYTES));
    if (secret.length !== 32) throw abort(ABORT.INCORRECT_SECRET, 1);
    const { field, contents } = this.order(execution, registry, orderId, abort(ABORT.ORDER_NOT_INITIATED, 2));
    const { order } = contents;
    if (order.isFulfilled) throw abort(ABORT.ORDER_FULFILLED, 3);
    const secretHash = sha256(secret);
    const recomputed = orderIdOf({ ...order, secretHash, registry: registry.id });
    if (!sameBytes(recomputed, orderId)) throw abort(ABORT.INCORRECT_SECRET, 4);
    this.settle(execution, registry, field, order.redeemer);
    const json = {
      order_id: Array.from(orderId),
      secret_hash: Array.from(secretHash),
      secret: Array.from(secret),
    };
    this.emit(
      execution,
      "Redeemed",
      json,
      bcs
        .struct("Redeemed", { order_id: BYTES, secret_hash: BYTES, secret: BYTES })
        .serialize(json)
        .toBytes(),
    );
    return [];
  }

  private refund(
    { execution, args }: MoveCallContext,
    coinType: string,
    abort: (code: number, rank: number) => ExecutionFailure,
  ): PtbValue[] {
    const registry = this.registryArg(args, coinType);
    const orderId = Uint8Array.from(args.pure(1, BYTES));
    const now = this.clockMs(args, 2, execution);
    const { field, contents } = this.order(execution, registry, orderId, abort(ABORT.ORDER_NOT_INITIATED, 1));
    const { order } = contents;
    if (order.isFulfilled) throw abort(ABORT.ORDER_FULFILLED, 2);
    if (!(order.initiatedAt + order.timelock < now)) throw abort(ABORT.ORDER_NOT_EXPIRED, 3);
    this.settle(execution, registry, field, order.initiator);
    this.emitRefunded(execution, orderId);
    return [];
  }

  private instantRefund(
    { execution, args }: MoveCallContext,
    coinType: string,
    abort: (code: number, rank: number) => ExecutionFailure,
  ): PtbValue[] {
    const registry = this.registryArg(args, coinType);
    const orderId = Uint8Array.from(args.pure(1, BYTES));
    const { field, contents } = this.order(execution, registry, orderId, abort(ABORT.ORDER_NOT_INITIATED, 1));
    const { order } = contents;
    if (execution.sender !== order.redeemer) throw abort(ABORT.SENDER_NOT_REDEEMER, 2);
    if (order.isFulfilled) throw abort(ABORT.ORDER_FULFILLED, 3);
    this.settle(execution, registry, field, order.initiator);
    this.emitRefunded(execution, orderId);
    return [];
  }

  /** Marks the order fulfilled and pays its amount, as a new coin split from the order's, to `to`. */
  private settle(
    execution: MoveCallContext["execution"],
    registry: SuiObject,
    field: SuiObject,
    to: string,
  ): void {
    if (field.contents.kind !== "order") throw new Error(`object ${field.id} is not an order`);
    const { order, coinType } = field.contents;
    execution.put({
      ...field,
      contents: {
        ...field.contents,
        order: { ...order, isFulfilled: true, coinBalance: order.coinBalance - order.amount },
      },
    });
    execution.put(registry);
    execution.create({ kind: "address", address: to }, { kind: "coin", coinType, balance: order.amount });
  }

  private emitRefunded(execution: MoveCallContext["execution"], orderId: Uint8Array): void {
    const json = { order_id: Array.from(orderId) };
    this.emit(
      execution,
      "Refunded",
      json,
      bcs.struct("Refunded", { order_id: BYTES }).serialize(json).toBytes(),
    );
  }

  private emit(
    execution: MoveCallContext["execution"],
    name: string,
    parsedJson: Record<string, unknown>,
    bytes: Uint8Array,
  ): void {
    execution.emit({
      packageId: this.packageId,
      module: this.name,
      type: `${this.packageId}::${this.name}::${name}`,
      parsedJson,
      bcs: bytes,
    });
  }
}
