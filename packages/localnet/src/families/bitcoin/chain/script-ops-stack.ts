import { ScriptFailure } from "./script-error.js";
import type { ScriptContext } from "./script-context.js";
import { castToBool } from "./script-num.js";

export type OpHandler = (ctx: ScriptContext) => void;

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Removes and returns the element `depth` from the top (1 = top). */
function take(ctx: ScriptContext, depth: number): Uint8Array {
  ctx.need(depth);
  const [item] = ctx.stack.splice(ctx.stack.length - depth, 1);
  if (item === undefined) throw new ScriptFailure("INVALID_STACK_OPERATION");
  return item;
}

function pickOrRoll(ctx: ScriptContext, roll: boolean): void {
  const n = ctx.popNum();
  if (n < 0n || n >= BigInt(ctx.stack.length)) throw new ScriptFailure("INVALID_STACK_OPERATION");
  const depth = Number(n) + 1;
  ctx.push(roll ? take(ctx, depth) : ctx.top(depth));
}

// Arguments of push(...) are read before anything is pushed, hence top(2), top(1) for OP_2DUP.
/** Stack manipulation, equality and OP_VERIFY/OP_RETURN. */
export const STACK_OPS: ReadonlyMap<number, OpHandler> = new Map<number, OpHandler>([
  [0x61, () => {}], // OP_NOP
  [
    0x69, // OP_VERIFY
    (ctx) => {
      if (!ctx.popBool()) throw new ScriptFailure("VERIFY");
    },
  ],
  [
    0x6a, // OP_RETURN
    () => {
      throw new ScriptFailure("OP_RETURN");
    },
  ],
  [
    0x6b, // OP_TOALTSTACK
    (ctx) => ctx.altstack.push(ctx.pop()),
  ],
  [
    0x6c, // OP_FROMALTSTACK
    (ctx) => {
      const item = ctx.altstack.pop();
      if (item === undefined) throw new ScriptFailure("INVALID_ALTSTACK_OPERATION");
      ctx.push(item);
    },
  ],
  [0x6d, (ctx) => (ctx.need(2), ctx.stack.splice(-2, 2))], // OP_2DROP
  [0x6e, (ctx) => ctx.stack.push(ctx.top(2), ctx.top(1))], // OP_2DUP
  [0x6f, (ctx) => ctx.stack.push(ctx.top(3), ctx.top(2), ctx.top(1))], // OP_3DUP
  [0x70, (ctx) => ctx.stack.push(ctx.top(4), ctx.top(3))], // OP_2OVER
  [0x71, (ctx) => (ctx.need(6), ctx.stack.push(take(ctx, 6), take(ctx, 5)))], // OP_2ROT
  [0x72, (ctx) => (ctx.need(4), ctx.stack.push(take(ctx, 4), take(ctx, 3)))], // OP_2SWAP
  [
    0x73, // OP_IFDUP
    (ctx) => {
      if (castToBool(ctx.top())) ctx.push(ctx.top());
    },
  ],
  [0x74, (ctx) => ctx.pushNum(BigInt(ctx.stack.length))], // OP_DEPTH
  [0x75, (ctx) => void ctx.pop()], // OP_DROP
  [0x76, (ctx) => ctx.push(ctx.top())], // OP_DUP
  [0x77, (ctx) => void take(ctx, 2)], // OP_NIP
  [0x78, (ctx) => ctx.push(ctx.top(2))], // OP_OVER
  [0x79, (ctx) => pickOrRoll(ctx, false)], // OP_PICK
  [0x7a, (ctx) => pickOrRoll(ctx, true)], // OP_ROLL
  [0x7b, (ctx) => ctx.push(take(ctx, 3))], // OP_ROT
  [0x7c, (ctx) => ctx.push(take(ctx, 2))], // OP_SWAP
  [0x7d, (ctx) => (ctx.need(2), ctx.stack.splice(-2, 0, ctx.top()))], // OP_TUCK
  [0x82, (ctx) => ctx.pushNum(BigInt(ctx.top().length))], // OP_SIZE
  [
    0x87, // OP_EQUAL
    (ctx) => {
      const b = ctx.pop();
      const a = ctx.pop();
      ctx.pushBool(equalBytes(a, b));
    },
  ],
  [
    0x88, // OP_EQUALVERIFY
    (ctx) => {
      const b = ctx.pop();
      const a = ctx.pop();
      if (!equalBytes(a, b)) throw new ScriptFailure("EQUALVERIFY");
    },
  ],
]);
