import { crypto } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";

export const TAPSCRIPT_LEAF_VERSION = 0xc0;
const CONTROL_BASE_SIZE = 33;
const CONTROL_NODE_SIZE = 32;
const CONTROL_MAX_NODES = 128;

function compactSize(n: number): Uint8Array {
  if (n < 0xfd) return Uint8Array.of(n);
  if (n <= 0xffff) return Uint8Array.of(0xfd, n & 0xff, n >> 8);
  return Uint8Array.of(0xfe, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts));
}

export function tapleafHash(leafVersion: number, script: Uint8Array): Uint8Array {
  return crypto.taggedHash("TapLeaf", concat(Uint8Array.of(leafVersion), compactSize(script.length), script));
}

export function isValidControlBlockSize(control: Uint8Array): boolean {
  const size = control.length;
  return (
    size >= CONTROL_BASE_SIZE &&
    size <= CONTROL_BASE_SIZE + CONTROL_MAX_NODES * CONTROL_NODE_SIZE &&
    (size - CONTROL_BASE_SIZE) % CONTROL_NODE_SIZE === 0
  );
}

function lessThan(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(a, b) < 0;
}

/**
 * BIP-341 commitment check: walks the merkle path from the leaf to the root, tweaks the control
 * block's internal key with it and compares key and parity with the output's key.
 */
export function verifyTaprootCommitment(
  control: Uint8Array,
  program: Uint8Array,
  leafHash: Uint8Array,
): boolean {
  const internalKey = control.subarray(1, CONTROL_BASE_SIZE);
  let node = leafHash;
  for (let offset = CONTROL_BASE_SIZE; offset < control.length; offset += CONTROL_NODE_SIZE) {
    const sibling = control.subarray(offset, offset + CONTROL_NODE_SIZE);
    node = crypto.taggedHash(
      "TapBranch",
      lessThan(node, sibling) ? concat(node, sibling) : concat(sibling, node),
    );
  }
  const tweak = crypto.taggedHash("TapTweak", concat(internalKey, node));
  let tweaked: ReturnType<typeof ecc.xOnlyPointAddTweak>;
  try {
    tweaked = ecc.xOnlyPointAddTweak(internalKey, tweak);
  } catch {
    return false; // not a point on the curve, or a tweak beyond the group order
  }
  if (tweaked === null) return false;
  return tweaked.parity === ((control[0] ?? 0) & 1) && Buffer.from(tweaked.xOnlyPubkey).equals(program);
}

/** Serialized size of a witness stack, the base of BIP-342's signature budget. */
export function witnessSerializedSize(witness: Uint8Array[]): number {
  return witness.reduce(
    (sum, item) => sum + compactSize(item.length).length + item.length,
    compactSize(witness.length).length,
  );
}
