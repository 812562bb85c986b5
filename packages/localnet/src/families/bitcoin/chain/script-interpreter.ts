import { ScriptFailure } from "./script-error.js";
import type { ScriptContext } from "./script-context.js";
import { ARITH_OPS } from "./script-ops-arith.js";
import { CRYPTO_OPS } from "./script-ops-crypto.js";
import { STACK_OPS, type OpHandler } from "./script-ops-stack.js";
import { castToBool } from "./script-num.js";
import { isMinimalPush, isOpSuccess, MAX_SCRIPT_ELEMENT_SIZE, OP, parseScript } from "./script-parse.js";

const MAX_STACK_SIZE = 1000;
const MAX_OPS_PER_SCRIPT = 201;
const MAX_SCRIPT_SIZE = 10_000;

const HANDLERS: ReadonlyMap<number, OpHandler> = new Map([...STACK_OPS, ...ARITH_OPS, ...CRYPTO_OPS]);

const DISABLED = new Set<number>([
  OP.OP_CAT,
  OP.OP_SUBSTR,
  OP.OP_LEFT,
  OP.OP_RIGHT,
  OP.OP_INVERT,
  OP.OP_AND,
  OP.OP_OR,
  OP.OP_XOR,
  OP.OP_2MUL,
  OP.OP_2DIV,
  OP.OP_MUL,
  OP.OP_DIV,
  OP.OP_MOD,
  OP.OP_LSHIFT,
  OP.OP_RSHIFT,
]);

/**
 * Runs a witness script (P2WPKH's implied script or a BIP-342 tapscript) with the witness stack as
 * the initial stack, and applies the witness rules around it: OP_SUCCESSx, size limits, clean stack.
 */
export function executeWitnessScript(ctx: ScriptContext): void {
  if (ctx.sigVersion === "tapscript") {
    // Any OP_SUCCESSx makes the script succeed, even after a push that is never executed.
    for (const op of parseScript(ctx.script)) {
      if (!isOpSuccess(op.opcode)) continue;
      if (ctx.policy) throw new ScriptFailure("DISCOURAGE_OP_SUCCESS");
      return;
    }
    if (ctx.stack.length > MAX_STACK_SIZE) throw new ScriptFailure("STACK_SIZE");
  }
  if (ctx.stack.some((item) => item.length > MAX_SCRIPT_ELEMENT_SIZE)) throw new ScriptFailure("PUSH_SIZE");
  evalScript(ctx);
  if (ctx.stack.length !== 1) throw new ScriptFailure("CLEANSTACK");
  if (!castToBool(ctx.top())) throw new ScriptFailure("EVAL_FALSE");
}

function evalScript(ctx: ScriptContext): void {
  const legacyLimits = ctx.sigVersion === "witness_v0";
  if (legacyLimits && ctx.script.length > MAX_SCRIPT_SIZE) throw new ScriptFailure("SCRIPT_SIZE");
  const branches: boolean[] = [];
  let opCount = 0;
  for (const { opcode, data } of parseScript(ctx.script)) {
    const executing = !branches.includes(false);
    if (data !== undefined && data.length > MAX_SCRIPT_ELEMENT_SIZE) throw new ScriptFailure("PUSH_SIZE");
    if (legacyLimits && opcode > OP.OP_16 && ++opCount > MAX_OPS_PER_SCRIPT)
      throw new ScriptFailure("OP_COUNT");
    if (DISABLED.has(opcode)) throw new ScriptFailure("DISABLED_OPCODE");
    if (data !== undefined) {
      if (!executing) continue;
      if (ctx.requireMinimal && !isMinimalPush(opcode, data)) throw new ScriptFailure("MINIMALDATA");
      ctx.push(data);
    } else if (opcode >= OP.OP_IF && opcode <= OP.OP_ENDIF) {
      controlFlow(ctx, opcode, branches, executing);
    } else if (executing) {
      execute(ctx, opcode);
    }
    if (ctx.stack.length + ctx.altstack.length > MAX_STACK_SIZE) throw new ScriptFailure("STACK_SIZE");
  }
  if (branches.length > 0) throw new ScriptFailure("UNBALANCED_CONDITIONAL");
}

function execute(ctx: ScriptContext, opcode: number): void {
  if (opcode === OP.OP_1NEGATE) return ctx.pushNum(-1n);
  if (opcode >= OP.OP_1 && opcode <= OP.OP_16) return ctx.pushNum(BigInt(opcode - OP.OP_1 + 1));
  const handler = HANDLERS.get(opcode);
  if (handler === undefined) throw new ScriptFailure("BAD_OPCODE");
  handler(ctx);
}

/** OP_IF, OP_NOTIF, OP_ELSE, OP_ENDIF (and OP_VERIF/OP_VERNOTIF, invalid even when not executed). */
function controlFlow(ctx: ScriptContext, opcode: number, branches: boolean[], executing: boolean): void {
  switch (opcode) {
    case OP.OP_IF:
    case OP.OP_NOTIF: {
      let value = false;
      if (executing) {
        if (ctx.stack.length === 0) throw new ScriptFailure("UNBALANCED_CONDITIONAL");
        const arg = ctx.top();
        const minimal = arg.length === 0 || (arg.length === 1 && arg[0] === 1);
        if (!minimal && ctx.sigVersion === "tapscript") throw new ScriptFailure("TAPSCRIPT_MINIMALIF");
        if (!minimal && ctx.policy) throw new ScriptFailure("MINIMALIF");
        value = castToBool(arg) !== (opcode === OP.OP_NOTIF);
        ctx.pop();
      }
      branches.push(value);
      return;
    }
    case OP.OP_ELSE: {
      if (branches.length === 0) throw new ScriptFailure("UNBALANCED_CONDITIONAL");
      branches.push(!(branches.pop() ?? false));
      return;
    }
    case OP.OP_ENDIF:
      if (branches.length === 0) throw new ScriptFailure("UNBALANCED_CONDITIONAL");
      branches.pop();
      return;
    default:
      throw new ScriptFailure("BAD_OPCODE");
  }
}
