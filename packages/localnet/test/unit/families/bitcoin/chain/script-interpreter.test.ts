import { script as bscript } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import {
  ScriptContext,
  type SignatureChecker,
} from "../../../../../src/families/bitcoin/chain/script-context.js";
import { ScriptFailure } from "../../../../../src/families/bitcoin/chain/script-error.js";
import { executeWitnessScript } from "../../../../../src/families/bitcoin/chain/script-interpreter.js";
import { decodeScriptNum, encodeScriptNum } from "../../../../../src/families/bitcoin/chain/script-num.js";

const OPS = bscript.OPS;
const noSignatures: SignatureChecker = {
  checkEcdsa: () => false,
  checkSchnorr: () => {
    throw new ScriptFailure("SCHNORR_SIG");
  },
  checkLockTime: () => true,
  checkSequence: () => true,
};

/** Runs a tapscript (policy flags) and returns bitcoind's error text, or "ok". */
function run(chunks: (number | Uint8Array)[], stack: Uint8Array[] = [], policy = true): string {
  const ctx = new ScriptContext("tapscript", policy, noSignatures, bscript.compile(chunks), stack, 1000);
  try {
    executeWitnessScript(ctx);
    return "ok";
  } catch (error) {
    return error instanceof ScriptFailure ? error.message : String(error);
  }
}

const n = (value: number): Uint8Array => encodeScriptNum(BigInt(value));

describe("script numbers", () => {
  it("round-trips and enforces minimal encoding under MINIMALDATA", () => {
    for (const v of [0, 1, -1, 127, 128, -128, 255, 256, 0x7fffffff, -0x7fffffff]) {
      expect(decodeScriptNum(encodeScriptNum(BigInt(v)), true)).toBe(BigInt(v));
    }
    expect(() => decodeScriptNum(Uint8Array.of(1, 0), true)).toThrow("unknown error");
    expect(decodeScriptNum(Uint8Array.of(1, 0), false)).toBe(1n);
    expect(() => decodeScriptNum(Uint8Array.of(1, 2, 3, 4, 5), false)).toThrow("unknown error");
  });
});

describe("tapscript interpreter", () => {
  it("runs stack operations in bitcoind's order", () => {
    // 1 2 3 4 5 6 OP_2ROT -> 3 4 5 6 1 2
    expect(
      run([
        n(1),
        n(2),
        n(3),
        n(4),
        n(5),
        n(6),
        OPS.OP_2ROT,
        n(2),
        OPS.OP_EQUALVERIFY,
        n(1),
        OPS.OP_EQUALVERIFY,
        OPS.OP_2DROP,
        OPS.OP_2DROP,
        OPS.OP_1,
      ]),
    ).toBe("ok");
    // 1 2 3 4 OP_2SWAP -> 3 4 1 2
    expect(
      run([
        n(1),
        n(2),
        n(3),
        n(4),
        OPS.OP_2SWAP,
        n(2),
        OPS.OP_EQUALVERIFY,
        n(1),
        OPS.OP_EQUALVERIFY,
        n(4),
        OPS.OP_EQUALVERIFY,
        n(3),
        OPS.OP_EQUAL,
      ]),
    ).toBe("ok");
    // 1 2 OP_2DUP -> 1 2 1 2 ; 1 2 3 OP_ROT -> 2 3 1
    expect(
      run([
        n(1),
        n(2),
        OPS.OP_2DUP,
        n(2),
        OPS.OP_EQUALVERIFY,
        n(1),
        OPS.OP_EQUALVERIFY,
        n(2),
        OPS.OP_EQUALVERIFY,
        n(1),
        OPS.OP_EQUAL,
      ]),
    ).toBe("ok");
    expect(
      run([
        n(1),
        n(2),
        n(3),
        OPS.OP_ROT,
        n(1),
        OPS.OP_EQUALVERIFY,
        n(3),
        OPS.OP_EQUALVERIFY,
        n(2),
        OPS.OP_EQUAL,
      ]),
    ).toBe("ok");
    // 1 2 3 OP_2 OP_PICK -> 1 2 3 1 ; OP_TUCK: 1 2 -> 2 1 2
    expect(
      run([
        n(1),
        n(2),
        n(3),
        OPS.OP_2,
        OPS.OP_PICK,
        n(1),
        OPS.OP_EQUALVERIFY,
        OPS.OP_2DROP,
        n(1),
        OPS.OP_EQUAL,
      ]),
    ).toBe("ok");
    expect(
      run([n(1), n(2), OPS.OP_TUCK, n(2), OPS.OP_EQUALVERIFY, n(1), OPS.OP_EQUALVERIFY, n(2), OPS.OP_EQUAL]),
    ).toBe("ok");
  });

  it("does arithmetic and comparisons on script numbers", () => {
    expect(run([n(5), n(7), OPS.OP_ADD, n(12), OPS.OP_NUMEQUAL])).toBe("ok");
    expect(run([n(3), n(2), n(5), OPS.OP_WITHIN])).toBe("ok");
    expect(run([n(-3), OPS.OP_ABS, n(3), OPS.OP_NUMEQUALVERIFY, OPS.OP_1])).toBe("ok");
    expect(run([n(2), n(3), OPS.OP_NUMEQUALVERIFY, OPS.OP_1])).toBe(
      "Script failed an OP_NUMEQUALVERIFY operation",
    );
  });

  it("applies control flow and the tapscript MINIMALIF rule", () => {
    expect(
      run([OPS.OP_IF, n(2), OPS.OP_ELSE, n(3), OPS.OP_ENDIF, n(3), OPS.OP_EQUAL], [new Uint8Array(0)]),
    ).toBe("ok");
    expect(run([OPS.OP_NOTIF, OPS.OP_1, OPS.OP_ENDIF], [new Uint8Array(0)])).toBe("ok");
    expect(run([OPS.OP_IF, OPS.OP_1, OPS.OP_ENDIF], [Uint8Array.of(1, 0)])).toBe(
      "OP_IF/NOTIF argument must be minimal in tapscript",
    );
    expect(run([OPS.OP_IF, OPS.OP_1], [Uint8Array.of(1)])).toBe("Invalid OP_IF construction");
    expect(run([OPS.OP_0, OPS.OP_IF, OPS.OP_VERIF, OPS.OP_ENDIF, OPS.OP_1])).toBe(
      "Opcode missing or not understood",
    );
  });

  it("fails on OP_RETURN, empty stacks and empty signatures as bitcoind does", () => {
    expect(run([OPS.OP_RETURN])).toBe("OP_RETURN was encountered");
    expect(run([OPS.OP_DROP])).toBe("Operation not valid with the current stack size");
    expect(run([OPS.OP_0])).toBe(
      "Script evaluated without error but finished with a false/empty top stack element",
    );
    // An empty signature is a plain "false" for OP_CHECKSIG, never an error.
    expect(run([new Uint8Array(32).fill(2), OPS.OP_CHECKSIG, OPS.OP_NOT], [new Uint8Array(0)])).toBe("ok");
    expect(run([new Uint8Array(32).fill(2), OPS.OP_CHECKSIG], [Uint8Array.of(1)])).toBe(
      "Invalid Schnorr signature",
    );
    expect(run([new Uint8Array(0), OPS.OP_CHECKSIG], [new Uint8Array(0)])).toBe(
      "Public key is neither compressed or uncompressed",
    );
  });

  it("checks hashes and sizes", () => {
    const secret = Uint8Array.from(Buffer.from("00".repeat(31) + "01", "hex"));
    const hash = Uint8Array.from(
      Buffer.from("ec4916dd28fc4c10d78e287ca5d9cc51ee1ae73cbfde08c6b37324cbfaac8bc5", "hex"),
    );
    expect(run([OPS.OP_SHA256, hash, OPS.OP_EQUAL], [secret])).toBe("ok");
    expect(run([OPS.OP_SIZE, n(32), OPS.OP_EQUALVERIFY, OPS.OP_SHA256, hash, OPS.OP_EQUAL], [secret])).toBe(
      "ok",
    );
    expect(run([OPS.OP_SHA256, hash, OPS.OP_EQUALVERIFY, OPS.OP_1], [Uint8Array.of(2)])).toBe(
      "Script failed an OP_EQUALVERIFY operation",
    );
  });
});
