import { ScriptFailure } from "./script-error.js";

export const OP = {
  OP_0: 0x00,
  OP_PUSHDATA1: 0x4c,
  OP_PUSHDATA2: 0x4d,
  OP_PUSHDATA4: 0x4e,
  OP_1NEGATE: 0x4f,
  OP_RESERVED: 0x50,
  OP_1: 0x51,
  OP_16: 0x60,
  OP_NOP: 0x61,
  OP_VER: 0x62,
  OP_IF: 0x63,
  OP_NOTIF: 0x64,
  OP_VERIF: 0x65,
  OP_VERNOTIF: 0x66,
  OP_ELSE: 0x67,
  OP_ENDIF: 0x68,
  OP_VERIFY: 0x69,
  OP_RETURN: 0x6a,
  OP_CAT: 0x7e,
  OP_SUBSTR: 0x7f,
  OP_LEFT: 0x80,
  OP_RIGHT: 0x81,
  OP_INVERT: 0x83,
  OP_AND: 0x84,
  OP_OR: 0x85,
  OP_XOR: 0x86,
  OP_2MUL: 0x8d,
  OP_2DIV: 0x8e,
  OP_MUL: 0x95,
  OP_DIV: 0x96,
  OP_MOD: 0x97,
  OP_LSHIFT: 0x98,
  OP_RSHIFT: 0x99,
  OP_CODESEPARATOR: 0xab,
  OP_CHECKSIG: 0xac,
  OP_CHECKSIGVERIFY: 0xad,
  OP_CHECKMULTISIG: 0xae,
  OP_CHECKMULTISIGVERIFY: 0xaf,
  OP_NOP1: 0xb0,
  OP_CHECKLOCKTIMEVERIFY: 0xb1,
  OP_CHECKSEQUENCEVERIFY: 0xb2,
  OP_NOP4: 0xb3,
  OP_NOP10: 0xb9,
  OP_CHECKSIGADD: 0xba,
} as const;

/** Largest element a script may push or keep on the stack. */
export const MAX_SCRIPT_ELEMENT_SIZE = 520;

export interface ScriptOp {
  opcode: number;
  /** The pushed bytes, for push opcodes (0x00..0x4e). */
  data?: Uint8Array;
}

/** Splits a script into operations; a push that runs past the end fails as bitcoind's GetOp does. */
export function* parseScript(script: Uint8Array): Generator<ScriptOp> {
  let pc = 0;
  while (pc < script.length) {
    const opcode = script[pc++] ?? 0;
    if (opcode > OP.OP_PUSHDATA4) {
      yield { opcode };
      continue;
    }
    let size = opcode;
    let width = 0;
    if (opcode === OP.OP_PUSHDATA1) width = 1;
    else if (opcode === OP.OP_PUSHDATA2) width = 2;
    else if (opcode === OP.OP_PUSHDATA4) width = 4;
    if (width > 0) {
      if (pc + width > script.length) throw new ScriptFailure("BAD_OPCODE");
      size = 0;
      for (let i = width - 1; i >= 0; i--) size = size * 256 + (script[pc + i] ?? 0);
      pc += width;
    }
    if (pc + size > script.length) throw new ScriptFailure("BAD_OPCODE");
    yield { opcode, data: script.subarray(pc, pc + size) };
    pc += size;
  }
}

/** MINIMALDATA: a push must use the shortest encoding (OP_0, OP_1..OP_16, OP_1NEGATE, direct push). */
export function isMinimalPush(opcode: number, data: Uint8Array): boolean {
  const size = data.length;
  const first = data[0] ?? 0;
  if (size === 0) return opcode === OP.OP_0;
  if (size === 1 && first >= 1 && first <= 16) return false;
  if (size === 1 && first === 0x81) return false;
  if (size <= 75) return opcode === size;
  if (size <= 255) return opcode === OP.OP_PUSHDATA1;
  if (size <= 65535) return opcode === OP.OP_PUSHDATA2;
  return true;
}

/** BIP-342 OP_SUCCESSx opcodes: their presence makes a tapscript succeed unconditionally. */
export function isOpSuccess(opcode: number): boolean {
  return (
    opcode === 80 ||
    opcode === 98 ||
    (opcode >= 126 && opcode <= 129) ||
    (opcode >= 131 && opcode <= 134) ||
    (opcode >= 137 && opcode <= 138) ||
    (opcode >= 141 && opcode <= 142) ||
    (opcode >= 149 && opcode <= 153) ||
    (opcode >= 187 && opcode <= 254)
  );
}
