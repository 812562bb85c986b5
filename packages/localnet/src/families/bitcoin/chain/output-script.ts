import { address, opcodes } from "bitcoinjs-lib";
// Taproot addresses decode only once bitcoinjs-lib has its secp256k1 backend; the node may run alone.
import "htlc-solver/chains/bitcoin/ecc.js";
import { REGTEST } from "./params.js";
import { decodeScriptNum } from "./script-num.js";
import { OP, parseScript, type ScriptOp } from "./script-parse.js";

/** bitcoind's names of output types (`scriptPubKey.type`). */
export type OutputType =
  | "pubkey"
  | "pubkeyhash"
  | "scripthash"
  | "multisig"
  | "nulldata"
  | "witness_v0_keyhash"
  | "witness_v0_scripthash"
  | "witness_v1_taproot"
  | "witness_unknown"
  | "nonstandard";

export interface OutputDescription {
  type: OutputType;
  address?: string;
  asm: string;
}

const OPCODE_NAMES = buildOpcodeNames();

function buildOpcodeNames(): Map<number, string> {
  const names = new Map<number, string>();
  for (const [name, code] of Object.entries(opcodes)) {
    if (typeof code !== "number") continue;
    // bitcoind prints the soft-fork names of NOP2/NOP3 and the plain names of OP_0/OP_1.
    if (name === "OP_NOP2" || name === "OP_NOP3" || name === "OP_FALSE" || name === "OP_TRUE") continue;
    if (!names.has(code)) names.set(code, name);
  }
  names.set(0xba, "OP_CHECKSIGADD");
  return names;
}

function safeParse(script: Uint8Array): ScriptOp[] | null {
  try {
    return [...parseScript(script)];
  } catch {
    return null;
  }
}

/** bitcoind's ScriptToAsmStr (without signature hash decoding). */
export function scriptToAsm(script: Uint8Array): string {
  const parts: string[] = [];
  try {
    for (const { opcode, data } of parseScript(script)) {
      if (data !== undefined) {
        parts.push(
          data.length <= 4 ? decodeScriptNum(data, false).toString() : Buffer.from(data).toString("hex"),
        );
      } else if (opcode === OP.OP_1NEGATE) parts.push("-1");
      else if (opcode >= OP.OP_1 && opcode <= OP.OP_16) parts.push(String(opcode - OP.OP_1 + 1));
      else parts.push(OPCODE_NAMES.get(opcode) ?? "OP_UNKNOWN");
    }
  } catch {
    parts.push("[error]");
  }
  return parts.join(" ");
}

function isPushOnly(ops: ScriptOp[]): boolean {
  return ops.every((op) => op.opcode <= OP.OP_16);
}

function smallInt(opcode: number | undefined): number | null {
  if (opcode === undefined || opcode < OP.OP_1 || opcode > OP.OP_16) return null;
  return opcode - OP.OP_1 + 1;
}

function isMultisig(ops: ScriptOp[]): boolean {
  const m = smallInt(ops[0]?.opcode);
  const n = smallInt(ops[ops.length - 2]?.opcode);
  if (m === null || n === null || ops[ops.length - 1]?.opcode !== OP.OP_CHECKMULTISIG) return false;
  const keys = ops.slice(1, -2);
  return keys.length === n && m <= n && keys.every((k) => k.data?.length === 33 || k.data?.length === 65);
}

function classify(script: Uint8Array): OutputType {
  const s = script;
  const len = s.length;
  if (len === 25 && s[0] === 0x76 && s[1] === 0xa9 && s[2] === 0x14 && s[23] === 0x88 && s[24] === 0xac) {
    return "pubkeyhash";
  }
  if (len === 23 && s[0] === 0xa9 && s[1] === 0x14 && s[22] === 0x87) return "scripthash";
  if (
    len >= 4 &&
    len <= 42 &&
    s[1] === len - 2 &&
    (s[0] === 0 || ((s[0] ?? 0) >= 0x51 && (s[0] ?? 0) <= 0x60))
  ) {
    if (s[0] === 0 && len === 22) return "witness_v0_keyhash";
    if (s[0] === 0 && len === 34) return "witness_v0_scripthash";
    if (s[0] === 0x51 && len === 34) return "witness_v1_taproot";
    if (s[0] !== 0) return "witness_unknown";
    return "nonstandard";
  }
  const ops = safeParse(script);
  if (ops === null) return "nonstandard";
  if (s[0] === OP.OP_RETURN && isPushOnly(ops.slice(1))) return "nulldata";
  if (
    ops.length === 2 &&
    ops[1]?.opcode === OP.OP_CHECKSIG &&
    (ops[0]?.data?.length === 33 || ops[0]?.data?.length === 65)
  ) {
    return "pubkey";
  }
  return isMultisig(ops) ? "multisig" : "nonstandard";
}

/** Type, regtest address (where the type has one) and asm of an output script, as bitcoind shows them. */
export function describeOutput(script: Uint8Array): OutputDescription {
  const type = classify(script);
  const asm = scriptToAsm(script);
  const encoded = addressOf(type, script);
  return encoded === null ? { type, asm } : { type, asm, address: encoded };
}

/**
 * The address of a classified script, encoded straight from its type. bitcoinjs-lib's fromOutputScript
 * finds the type by trying each payment in turn, and each miss throws a validation error: describing the
 * outputs of verbose blocks that way was a fifth of the local chains' CPU in the load benchmark.
 */
function addressOf(type: OutputType, script: Uint8Array): string | null {
  const network = REGTEST.network;
  switch (type) {
    case "pubkeyhash":
      return address.toBase58Check(script.subarray(3, 23), network.pubKeyHash);
    case "scripthash":
      return address.toBase58Check(script.subarray(2, 22), network.scriptHash);
    case "witness_v0_keyhash":
    case "witness_v0_scripthash":
      return address.toBech32(script.subarray(2), 0, network.bech32);
    case "witness_v1_taproot":
    case "witness_unknown":
      return address.toBech32(script.subarray(2), (script[0] ?? 0) - 0x50, network.bech32);
    default:
      return null;
  }
}

/** Output script of a regtest address, or null when the text is not one. */
export function addressToScript(text: string): Uint8Array | null {
  try {
    return address.toOutputScript(text, REGTEST.network);
  } catch {
    return null;
  }
}
