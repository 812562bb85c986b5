/**
 * The Bitcoin HTLC: a Taproot output whose internal key nobody can sign for (a NUMS point), so it is
 * spent only through one of three script leaves. Byte-exact with the service's deployed scripts
 * (docs/protocol.md, "Bitcoin Taproot HTLC"); the templates are documented in
 * contracts/bitcoin/htlc.md.
 */
import { crypto as btcCrypto, opcodes, payments, script, type Network } from "bitcoinjs-lib";
import { bytesToHex, concatBytes, fixedBytes, hexToBytes } from "./bytes.js";
import { ecc } from "./ecc.js";
import { bitcoinNetwork, type BitcoinNetworkName } from "./network.js";

export const TAPSCRIPT_LEAF_VERSION = 0xc0;

/** BIP-341's provably unspendable point H (x coordinate; its y is even). */
export const BIP341_H_X = "50929b74c1a04954b78b4b6035e97a5e078a5a0f28ec96d547bfee9ace803ac0";

/** Largest relative lock in blocks that nSequence can express (BIP-68 keeps 16 bits). */
export const MAX_CSV_BLOCKS = 0xffff;

export type HtlcLeafName = "redeem" | "refund" | "instantRefund";

/** H + sha256("GardenHTLC")·G, x-only: the internal key of every HTLC output. */
export function computeNumsInternalKey(): Uint8Array {
  const tweak = btcCrypto.sha256(new TextEncoder().encode("GardenHTLC"));
  const result = ecc.xOnlyPointAddTweak(hexToBytes(BIP341_H_X), tweak);
  if (result === null) throw new Error("NUMS point derivation failed: H + t·G is the point at infinity");
  return result.xOnlyPubkey;
}

export const NUMS_INTERNAL_KEY: Uint8Array = computeNumsInternalKey();

/** `OP_SHA256 <secretHash> OP_EQUALVERIFY <redeemerKey> OP_CHECKSIG` */
export function redeemLeafScript(secretHash: Uint8Array, redeemerKey: Uint8Array): Uint8Array {
  return script.compile([
    opcodes.OP_SHA256,
    secretHash,
    opcodes.OP_EQUALVERIFY,
    redeemerKey,
    opcodes.OP_CHECKSIG,
  ]);
}

/** `<timelock> OP_CHECKSEQUENCEVERIFY OP_DROP <initiatorKey> OP_CHECKSIG`, timelock as a minimal number. */
export function refundLeafScript(timelock: number, initiatorKey: Uint8Array): Uint8Array {
  return script.compile([
    script.number.encode(timelock),
    opcodes.OP_CHECKSEQUENCEVERIFY,
    opcodes.OP_DROP,
    initiatorKey,
    opcodes.OP_CHECKSIG,
  ]);
}

/** `<initiatorKey> OP_CHECKSIG <redeemerKey> OP_CHECKSIGADD OP_2 OP_NUMEQUAL` */
export function instantRefundLeafScript(initiatorKey: Uint8Array, redeemerKey: Uint8Array): Uint8Array {
  return script.compile([
    initiatorKey,
    opcodes.OP_CHECKSIG,
    redeemerKey,
    opcodes.OP_CHECKSIGADD,
    opcodes.OP_2,
    opcodes.OP_NUMEQUAL,
  ]);
}

/** BIP-341 leaf hash: tagged "TapLeaf" over version ‖ compact-size(script) ‖ script. */
export function tapLeafHash(leafScript: Uint8Array): Uint8Array {
  const length = compactSize(leafScript.length);
  return btcCrypto.taggedHash(
    "TapLeaf",
    concatBytes([Uint8Array.of(TAPSCRIPT_LEAF_VERSION), length, leafScript]),
  );
}

function compactSize(n: number): Uint8Array {
  if (n < 0xfd) return Uint8Array.of(n);
  if (n <= 0xffff) return Uint8Array.of(0xfd, n & 0xff, n >> 8);
  throw new Error(`leaf script of ${n} bytes is larger than this code supports`);
}

export interface BitcoinHtlcInput {
  /** x-only keys, 32 bytes hex. */
  initiatorKey: string;
  redeemerKey: string;
  /** sha256 of the secret, 32 bytes hex. */
  secretHash: string;
  /** Relative lock in blocks. */
  timelock: number | bigint;
  network: BitcoinNetworkName;
}

export interface HtlcLeaf {
  name: HtlcLeafName;
  script: Uint8Array;
  /** BIP-341 leaf hash, the `leafHash` of script-path signature hashes. */
  hash: Uint8Array;
}

export interface BitcoinHtlc {
  address: string;
  outputScript: Uint8Array;
  network: Network;
  initiatorKey: Uint8Array;
  redeemerKey: Uint8Array;
  secretHash: Uint8Array;
  timelock: number;
  leaves: Record<HtlcLeafName, HtlcLeaf>;
  controlBlock(leaf: HtlcLeafName): Uint8Array;
}

export class HtlcParamsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HtlcParamsError";
  }
}

/** Checks and converts the relative lock; CSV in blocks fits 16 bits and must be positive. */
export function checkTimelock(timelock: number | bigint): number {
  const value = BigInt(timelock);
  if (value < 1n || value > BigInt(MAX_CSV_BLOCKS)) {
    throw new HtlcParamsError(`Bitcoin HTLC timelock must be 1..${MAX_CSV_BLOCKS} blocks, got ${value}`);
  }
  return Number(value);
}

function keyBytes(hex: string, what: string): Uint8Array {
  const key = fixedBytes(hex, 32, what);
  if (!ecc.isXOnlyPoint(key)) throw new HtlcParamsError(`${what} ${hex} is not a valid x-only public key`);
  return key;
}

/**
 * HTLCs built so far, by their parameters. Deriving the taproot output costs about a millisecond and every
 * round asks for each open order's HTLC several times; the oldest go first past the cap.
 */
const builtHtlcs = new Map<string, BitcoinHtlc>();
const BUILT_HTLC_CAP = 20_000;

/**
 * The HTLC output for these parameters: address, output script, leaves and control blocks. The same
 * parameters give the same object; its bytes are shared, so callers never write to them.
 */
export function bitcoinHtlc(input: BitcoinHtlcInput): BitcoinHtlc {
  const key = [
    input.network,
    input.initiatorKey.toLowerCase(),
    input.redeemerKey.toLowerCase(),
    input.secretHash.toLowerCase(),
    String(input.timelock),
  ].join("|");
  const built = builtHtlcs.get(key);
  if (built !== undefined) return built;
  const htlc = buildBitcoinHtlc(input);
  if (builtHtlcs.size >= BUILT_HTLC_CAP) {
    const oldest = builtHtlcs.keys().next().value;
    if (oldest !== undefined) builtHtlcs.delete(oldest);
  }
  builtHtlcs.set(key, htlc);
  return htlc;
}

function buildBitcoinHtlc(input: BitcoinHtlcInput): BitcoinHtlc {
  const initiatorKey = keyBytes(input.initiatorKey, "initiator key");
  const redeemerKey = keyBytes(input.redeemerKey, "redeemer key");
  const secretHash = fixedBytes(input.secretHash, 32, "secret hash");
  const timelock = checkTimelock(input.timelock);
  const network = bitcoinNetwork(input.network);
  const scripts: Record<HtlcLeafName, Uint8Array> = {
    redeem: redeemLeafScript(secretHash, redeemerKey),
    refund: refundLeafScript(timelock, initiatorKey),
    instantRefund: instantRefundLeafScript(initiatorKey, redeemerKey),
  };
  const leaf = (name: HtlcLeafName): HtlcLeaf => ({
    name,
    script: scripts[name],
    hash: tapLeafHash(scripts[name]),
  });
  const leaves = { redeem: leaf("redeem"), refund: leaf("refund"), instantRefund: leaf("instantRefund") };
  const scriptTree: [{ output: Uint8Array }, [{ output: Uint8Array }, { output: Uint8Array }]] = [
    { output: scripts.redeem },
    [{ output: scripts.refund }, { output: scripts.instantRefund }],
  ];
  const payment = payments.p2tr({ internalPubkey: NUMS_INTERNAL_KEY, scriptTree, network });
  if (payment.address === undefined || payment.output === undefined) {
    throw new HtlcParamsError("could not derive the HTLC's P2TR output");
  }
  const controlBlocks = new Map<HtlcLeafName, Uint8Array>();
  const controlBlock = (name: HtlcLeafName): Uint8Array => {
    const cached = controlBlocks.get(name);
    if (cached !== undefined) return cached;
    const spend = payments.p2tr({
      internalPubkey: NUMS_INTERNAL_KEY,
      scriptTree,
      redeem: { output: scripts[name], redeemVersion: TAPSCRIPT_LEAF_VERSION },
      network,
    });
    const block = spend.witness?.[spend.witness.length - 1];
    if (block === undefined)
      throw new HtlcParamsError(`could not build the control block of the ${name} leaf`);
    controlBlocks.set(name, block);
    return block;
  };
  return {
    address: payment.address,
    outputScript: payment.output,
    network,
    initiatorKey,
    redeemerKey,
    secretHash,
    timelock,
    leaves,
    controlBlock,
  };
}

/** Hex of a leaf script, handy for logs and docs. */
export function leafHex(htlc: BitcoinHtlc, name: HtlcLeafName): string {
  return bytesToHex(htlc.leaves[name].script);
}
