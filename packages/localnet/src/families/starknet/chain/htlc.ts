/**
 * The HTLC model: catalogfi/starknet-htlc's `HTLC` contract (one per token), entry point for entry point,
 * with its assert messages and events, in the order-id layout it was deployed with.
 */
import { createHash } from "node:crypto";
import { CallRevert } from "./call-revert.js";
import { CalldataReader } from "./calldata.js";
import { hashWords, u256Parts, wordsBytes } from "./felt.js";
import { LOCAL_HTLC_CLASS_HASH } from "./local-classes.js";
import { orderId, type OrderIdLayout } from "./order-id.js";
import { entryPointTable, selectorOf } from "./selectors.js";
import { initiateTypedData, instantRefundTypedData, messageHash } from "./snip12.js";
import { VALID } from "./account.js";
import type { CallContext, ContractModel } from "./world.js";

export interface HtlcOrder {
  isFulfilled: boolean;
  initiator: bigint;
  redeemer: bigint;
  initiatedAt: bigint;
  timelock: bigint;
  amount: bigint;
}

const INITIATED = selectorOf("Initiated");
const REDEEMED = selectorOf("Redeemed");
const REFUNDED = selectorOf("Refunded");
const TRANSFER_FROM = selectorOf("transfer_from");
const TRANSFER = selectorOf("transfer");
const IS_VALID_SIGNATURE = selectorOf("is_valid_signature");

interface InitiateArgs {
  redeemer: bigint;
  timelock: bigint;
  amount: bigint;
  secretHash: bigint[];
}

type Handler = (htlc: HtlcModel, ctx: CallContext, args: CalldataReader) => bigint[];

function readTerms(args: CalldataReader): InitiateArgs {
  return { redeemer: args.felt(), timelock: args.u128(), amount: args.u256(), secretHash: args.u32Fixed(8) };
}

/** `safe_params`, checked by all three initiates. */
function checkParams(terms: InitiateArgs): void {
  if (terms.redeemer === 0n) throw new CallRevert("HTLC: zero address redeemer");
  if (terms.timelock === 0n) throw new CallRevert("HTLC: zero timelock");
  if (terms.amount === 0n) throw new CallRevert("HTLC: zero amount");
}

const ENTRY_POINTS = entryPointTable<Handler>([
  [["token"], (htlc) => [htlc.token]],
  [["get_order"], (htlc, _ctx, args) => htlc.orderFelts(args.felt())],
  [
    ["initiate"],
    (htlc, ctx, args) => {
      const terms = readTerms(args);
      args.end();
      checkParams(terms);
      htlc.initiate(ctx, ctx.caller, ctx.caller, terms);
      return [];
    },
  ],
  [
    ["initiate_on_behalf"],
    (htlc, ctx, args) => {
      const initiator = args.felt();
      const terms = readTerms(args);
      args.end();
      checkParams(terms);
      htlc.initiate(ctx, ctx.caller, initiator, terms);
      return [];
    },
  ],
  [
    ["initiate_with_signature"],
    (htlc, ctx, args) => {
      const initiator = args.felt();
      const terms = readTerms(args);
      const signature = args.feltArray();
      args.end();
      checkParams(terms);
      const hash = messageHash(
        initiateTypedData({
          layout: htlc.layout,
          chainId: ctx.chainId,
          htlc: ctx.self,
          redeemer: terms.redeemer,
          amount: terms.amount,
          timelock: terms.timelock,
          secretHashWords: terms.secretHash,
        }),
        initiator,
      );
      if (!signatureAccepted(ctx, initiator, hash, signature))
        throw new CallRevert("HTLC: invalid initiator signature");
      htlc.initiate(ctx, initiator, initiator, terms);
      return [];
    },
  ],
  [
    ["redeem"],
    (htlc, ctx, args) => {
      const id = args.felt();
      const secret = args.u32Array();
      args.end();
      htlc.redeem(ctx, id, secret);
      return [];
    },
  ],
  [
    ["refund"],
    (htlc, ctx, args) => {
      const id = args.felt();
      args.end();
      htlc.refund(ctx, id);
      return [];
    },
  ],
  [
    ["instant_refund"],
    (htlc, ctx, args) => {
      const id = args.felt();
      const signature = args.feltArray();
      args.end();
      htlc.instantRefund(ctx, id, signature);
      return [];
    },
  ],
]);

/** Asks the signer's account contract, as the Cairo source does: VALID or 1 passes. */
function signatureAccepted(ctx: CallContext, signer: bigint, hash: bigint, signature: bigint[]): boolean {
  const answer = ctx.callContract(signer, IS_VALID_SIGNATURE, [hash, BigInt(signature.length), ...signature]);
  return answer[0] === VALID || answer[0] === 1n;
}

export class HtlcModel implements ContractModel {
  readonly classHash = LOCAL_HTLC_CLASS_HASH;

  constructor(
    readonly token: bigint,
    readonly layout: OrderIdLayout,
    private readonly orders = new Map<bigint, HtlcOrder>(),
  ) {}

  clone(): HtlcModel {
    return new HtlcModel(this.token, this.layout, new Map(this.orders));
  }

  entryPoint(selector: bigint): ((ctx: CallContext, calldata: bigint[]) => bigint[]) | undefined {
    const handler = ENTRY_POINTS.get(selector);
    return handler === undefined
      ? undefined
      : (ctx, calldata) => handler(this, ctx, new CalldataReader(calldata));
  }

  order(id: bigint): HtlcOrder | undefined {
    return this.orders.get(id);
  }

  /** `get_order`'s 7 felts; an unknown id reads as the zero order. */
  orderFelts(id: bigint): bigint[] {
    const order = this.orders.get(id);
    if (order === undefined) return [0n, 0n, 0n, 0n, 0n, 0n, 0n];
    const { low, high } = u256Parts(order.amount);
    return [
      order.isFulfilled ? 1n : 0n,
      order.initiator,
      order.redeemer,
      order.initiatedAt,
      order.timelock,
      low,
      high,
    ];
  }

  private idOf(
    ctx: CallContext,
    initiator: bigint,
    redeemer: bigint,
    timelock: bigint,
    amount: bigint,
    words: bigint[],
  ) {
    return orderId(this.layout, {
      chainId: ctx.chainId,
      initiator,
      redeemer,
      timelock,
      amount,
      secretHashWords: words,
      htlc: ctx.self,
    });
  }

  initiate(ctx: CallContext, funder: bigint, initiator: bigint, terms: InitiateArgs): void {
    if (initiator === terms.redeemer) throw new CallRevert("HTLC: same initiator & redeemer");
    const id = this.idOf(ctx, initiator, terms.redeemer, terms.timelock, terms.amount, terms.secretHash);
    if ((this.orders.get(id)?.redeemer ?? 0n) !== 0n) throw new CallRevert("HTLC: duplicate order");
    this.orders.set(id, {
      isFulfilled: false,
      initiator,
      redeemer: terms.redeemer,
      initiatedAt: ctx.blockNumber,
      timelock: terms.timelock,
      amount: terms.amount,
    });
    ctx.gas.storageWrite(6);
    const { low, high } = u256Parts(terms.amount);
    const moved = ctx.callContract(this.token, TRANSFER_FROM, [funder, ctx.self, low, high]);
    if (moved[0] !== 1n) throw new CallRevert("ERC20: Transfer failed");
    ctx.emit([INITIATED, id], [...terms.secretHash, low, high]);
  }

  private live(id: bigint): HtlcOrder {
    const order = this.orders.get(id);
    if (order === undefined || order.redeemer === 0n) throw new CallRevert("HTLC: order not initiated");
    if (order.isFulfilled) throw new CallRevert("HTLC: order fulfilled");
    return order;
  }

  private fulfil(ctx: CallContext, id: bigint, order: HtlcOrder, to: bigint): void {
    this.orders.set(id, { ...order, isFulfilled: true });
    ctx.gas.storageWrite();
    const { low, high } = u256Parts(order.amount);
    ctx.callContract(this.token, TRANSFER, [to, low, high]);
  }

  redeem(ctx: CallContext, id: bigint, secret: bigint[]): void {
    const order = this.live(id);
    const words = hashWords(createHash("sha256").update(wordsBytes(secret)).digest());
    const expected = this.idOf(ctx, order.initiator, order.redeemer, order.timelock, order.amount, words);
    if (expected !== id) throw new CallRevert("HTLC: incorrect secret");
    this.fulfil(ctx, id, order, order.redeemer);
    ctx.emit([REDEEMED, id], [...words, BigInt(secret.length), ...secret]);
  }

  refund(ctx: CallContext, id: bigint): void {
    const order = this.live(id);
    if (!(order.initiatedAt + order.timelock < ctx.blockNumber))
      throw new CallRevert("HTLC: order not expired");
    this.fulfil(ctx, id, order, order.initiator);
    ctx.emit([REFUNDED, id], []);
  }

  /** As the source orders it: the signature is checked against the stored redeemer first (a zero order's redeemer is 0). */
  instantRefund(ctx: CallContext, id: bigint, signature: bigint[]): void {
    const order = this.orders.get(id) ?? {
      isFulfilled: false,
      initiator: 0n,
      redeemer: 0n,
      initiatedAt: 0n,
      timelock: 0n,
      amount: 0n,
    };
    const hash = messageHash(
      instantRefundTypedData({ layout: this.layout, chainId: ctx.chainId, htlc: ctx.self, orderId: id }),
      order.redeemer,
    );
    if (!signatureAccepted(ctx, order.redeemer, hash, signature))
      throw new CallRevert("HTLC: invalid redeemer signature");
    if (order.isFulfilled) throw new CallRevert("HTLC: order fulfilled");
    this.fulfil(ctx, id, order, order.initiator);
    ctx.emit([REFUNDED, id], []);
  }
}
