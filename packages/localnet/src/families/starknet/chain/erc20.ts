/**
 * The ERC20 model: OpenZeppelin Cairo 1's ERC20 (snake_case and camelCase entry points, its assert
 * messages, `Transfer`/`Approval` events keyed by the parties).
 */
import { CallRevert } from "./call-revert.js";
import { CalldataReader } from "./calldata.js";
import { shortStringFelt, u256Parts } from "./felt.js";
import { LOCAL_ERC20_CLASS_HASH } from "./local-classes.js";
import { entryPointTable, selectorOf } from "./selectors.js";
import type { CallContext, ContractModel } from "./world.js";

const TRUE = [1n];
const TRANSFER_EVENT = selectorOf("Transfer");
const APPROVAL_EVENT = selectorOf("Approval");

type Handler = (token: Erc20Model, ctx: CallContext, args: CalldataReader) => bigint[];

function u256Result(value: bigint): bigint[] {
  const { low, high } = u256Parts(value);
  return [low, high];
}

const ENTRY_POINTS = entryPointTable<Handler>([
  [["name"], (t) => [shortStringFelt(t.name)]],
  [["symbol"], (t) => [shortStringFelt(t.symbol)]],
  [["decimals"], (t) => [BigInt(t.decimals)]],
  [["total_supply", "totalSupply"], (t) => u256Result(t.totalSupply)],
  [["balance_of", "balanceOf"], (t, _ctx, args) => u256Result(t.balanceOf(args.felt()))],
  [["allowance"], (t, _ctx, args) => u256Result(t.allowanceOf(args.felt(), args.felt()))],
  [
    ["transfer"],
    (t, ctx, args) => {
      const to = args.felt();
      const amount = args.u256();
      args.end();
      t.move(ctx, ctx.caller, to, amount);
      return TRUE;
    },
  ],
  [
    ["transfer_from", "transferFrom"],
    (t, ctx, args) => {
      const from = args.felt();
      const to = args.felt();
      const amount = args.u256();
      args.end();
      t.spendAllowance(ctx, from, ctx.caller, amount);
      t.move(ctx, from, to, amount);
      return TRUE;
    },
  ],
  [
    ["approve"],
    (t, ctx, args) => {
      const spender = args.felt();
      const amount = args.u256();
      args.end();
      t.approve(ctx, ctx.caller, spender, amount);
      return TRUE;
    },
  ],
]);

export class Erc20Model implements ContractModel {
  readonly classHash = LOCAL_ERC20_CLASS_HASH;

  constructor(
    readonly name: string,
    readonly symbol: string,
    readonly decimals: number,
    private readonly balances = new Map<bigint, bigint>(),
    private readonly allowances = new Map<string, bigint>(),
    public totalSupply = 0n,
  ) {}

  clone(): Erc20Model {
    return new Erc20Model(
      this.name,
      this.symbol,
      this.decimals,
      new Map(this.balances),
      new Map(this.allowances),
      this.totalSupply,
    );
  }

  entryPoint(selector: bigint): ((ctx: CallContext, calldata: bigint[]) => bigint[]) | undefined {
    const handler = ENTRY_POINTS.get(selector);
    return handler === undefined
      ? undefined
      : (ctx, calldata) => handler(this, ctx, new CalldataReader(calldata));
  }

  balanceOf(owner: bigint): bigint {
    return this.balances.get(owner) ?? 0n;
  }

  allowanceOf(owner: bigint, spender: bigint): bigint {
    return this.allowances.get(`${owner}:${spender}`) ?? 0n;
  }

  /** Setup only (the local chain's faucet and fee estimation's funding), outside any transaction. */
  mint(to: bigint, amount: bigint): void {
    this.balances.set(to, this.balanceOf(to) + amount);
    this.totalSupply += amount;
  }

  /** A transfer with its Transfer event; also how the protocol charges a fee in the fee token. */
  move(ctx: CallContext, from: bigint, to: bigint, amount: bigint): void {
    if (from === 0n) throw new CallRevert("ERC20: transfer from 0");
    if (to === 0n) throw new CallRevert("ERC20: transfer to 0");
    const balance = this.balanceOf(from);
    if (balance < amount) throw new CallRevert("ERC20: insufficient balance");
    this.balances.set(from, balance - amount);
    this.balances.set(to, this.balanceOf(to) + amount);
    ctx.gas.storageWrite(2);
    const { low, high } = u256Parts(amount);
    ctx.emit([TRANSFER_EVENT, from, to], [low, high]);
  }

  spendAllowance(ctx: CallContext, owner: bigint, spender: bigint, amount: bigint): void {
    const current = this.allowanceOf(owner, spender);
    if (current === 2n ** 256n - 1n) return;
    if (current < amount) throw new CallRevert("ERC20: insufficient allowance");
    this.allowances.set(`${owner}:${spender}`, current - amount);
    ctx.gas.storageWrite();
  }

  approve(ctx: CallContext, owner: bigint, spender: bigint, amount: bigint): void {
    if (spender === 0n) throw new CallRevert("ERC20: approve to 0");
    this.allowances.set(`${owner}:${spender}`, amount);
    ctx.gas.storageWrite();
    const { low, high } = u256Parts(amount);
    ctx.emit([APPROVAL_EVENT, owner, spender], [low, high]);
  }
}
