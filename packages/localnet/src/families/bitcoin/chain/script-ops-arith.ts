import { ScriptFailure } from "./script-error.js";
import type { ScriptContext } from "./script-context.js";
import type { OpHandler } from "./script-ops-stack.js";

function unary(fn: (a: bigint) => bigint): OpHandler {
  return (ctx: ScriptContext) => ctx.pushNum(fn(ctx.popNum()));
}

function binary(fn: (a: bigint, b: bigint) => bigint | boolean): OpHandler {
  return (ctx: ScriptContext) => {
    ctx.need(2);
    const b = ctx.popNum();
    const a = ctx.popNum();
    const result = fn(a, b);
    if (typeof result === "boolean") ctx.pushBool(result);
    else ctx.pushNum(result);
  };
}

/** Script-number arithmetic (operands up to 4 bytes, results may reach 5). */
export const ARITH_OPS: ReadonlyMap<number, OpHandler> = new Map<number, OpHandler>([
  [0x8b, unary((a) => a + 1n)], // OP_1ADD
  [0x8c, unary((a) => a - 1n)], // OP_1SUB
  [0x8f, unary((a) => -a)], // OP_NEGATE
  [0x90, unary((a) => (a < 0n ? -a : a))], // OP_ABS
  [0x91, unary((a) => (a === 0n ? 1n : 0n))], // OP_NOT
  [0x92, unary((a) => (a !== 0n ? 1n : 0n))], // OP_0NOTEQUAL
  [0x93, binary((a, b) => a + b)], // OP_ADD
  [0x94, binary((a, b) => a - b)], // OP_SUB
  [0x9a, binary((a, b) => a !== 0n && b !== 0n)], // OP_BOOLAND
  [0x9b, binary((a, b) => a !== 0n || b !== 0n)], // OP_BOOLOR
  [0x9c, binary((a, b) => a === b)], // OP_NUMEQUAL
  [
    0x9d, // OP_NUMEQUALVERIFY
    (ctx) => {
      ctx.need(2);
      const b = ctx.popNum();
      const a = ctx.popNum();
      if (a !== b) throw new ScriptFailure("NUMEQUALVERIFY");
    },
  ],
  [0x9e, binary((a, b) => a !== b)], // OP_NUMNOTEQUAL
  [0x9f, binary((a, b) => a < b)], // OP_LESSTHAN
  [0xa0, binary((a, b) => a > b)], // OP_GREATERTHAN
  [0xa1, binary((a, b) => a <= b)], // OP_LESSTHANOREQUAL
  [0xa2, binary((a, b) => a >= b)], // OP_GREATERTHANOREQUAL
  [0xa3, binary((a, b) => (a < b ? a : b))], // OP_MIN
  [0xa4, binary((a, b) => (a > b ? a : b))], // OP_MAX
  [
    0xa5, // OP_WITHIN
    (ctx) => {
      ctx.need(3);
      const max = ctx.popNum();
      const min = ctx.popNum();
      const x = ctx.popNum();
      ctx.pushBool(min <= x && x < max);
    },
  ],
]);
