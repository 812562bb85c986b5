import { Block, crypto, Transaction } from "bitcoinjs-lib";
import { blockSubsidy, REGTEST, REGTEST_GENESIS } from "./params.js";
import { encodeScriptNum } from "./script-num.js";

const ZERO_HASH = new Uint8Array(32);
const WITNESS_COMMITMENT_HEADER = Uint8Array.of(0x6a, 0x24, 0xaa, 0x21, 0xa9, 0xed);

/** Merkle root over internal-order hashes, duplicating the last hash of odd levels. */
export function merkleRoot(hashes: Uint8Array[]): Uint8Array {
  if (hashes.length === 0) throw new Error("a merkle root needs at least one hash");
  let level = hashes;
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] ?? ZERO_HASH;
      const right = level[i + 1] ?? left;
      next.push(crypto.hash256(Buffer.concat([left, right])));
    }
    level = next;
  }
  return level[0] ?? ZERO_HASH;
}

/** BIP-34 height push as Bitcoin Core writes it (`CScript() << height`), then OP_0 as extra nonce. */
function coinbaseScriptSig(height: number): Uint8Array {
  let push: Uint8Array;
  if (height === 0) push = Uint8Array.of(0x00);
  else if (height <= 16) push = Uint8Array.of(0x50 + height);
  else {
    const num = encodeScriptNum(BigInt(height));
    push = Uint8Array.from([num.length, ...num]);
  }
  return Uint8Array.from([...push, 0x00]);
}

function witnessCommitmentScript(txs: Transaction[]): Uint8Array {
  // The coinbase's wtxid counts as zero; the commitment also covers the 32-byte reserved value.
  const wtxids = [ZERO_HASH, ...txs.map((tx) => tx.getHash(true))];
  const commitment = crypto.hash256(Buffer.concat([merkleRoot(wtxids), ZERO_HASH]));
  return Uint8Array.from([...WITNESS_COMMITMENT_HEADER, ...commitment]);
}

export interface BlockTemplate {
  prevHash: string;
  height: number;
  time: number;
  /** Non-coinbase transactions in block order (parents first). */
  txs: Transaction[];
  totalFees: bigint;
  payoutScript: Uint8Array;
}

/** Builds and mines (regtest proof of work) a block with a coinbase paying subsidy plus fees. */
export function buildBlock(template: BlockTemplate): Block {
  const coinbase = new Transaction();
  coinbase.version = 2;
  coinbase.addInput(ZERO_HASH, 0xffffffff, 0xffffffff, coinbaseScriptSig(template.height));
  coinbase.addOutput(template.payoutScript, blockSubsidy(template.height) + template.totalFees);
  coinbase.addOutput(witnessCommitmentScript(template.txs), 0n);
  coinbase.setWitness(0, [ZERO_HASH]);
  const block = new Block();
  block.version = REGTEST.blockVersion;
  block.prevHash = Uint8Array.from(Buffer.from(template.prevHash, "hex").reverse());
  block.timestamp = template.time;
  block.bits = REGTEST.bits;
  block.transactions = [coinbase, ...template.txs];
  block.merkleRoot = merkleRoot(block.transactions.map((tx) => tx.getHash()));
  mine(block);
  return block;
}

function mine(block: Block): void {
  // About half of all hashes meet regtest's target, so this loop ends after a couple of tries.
  for (block.nonce = 0; !block.checkProofOfWork(); block.nonce++) {
    if (block.nonce >= 0xffffffff) throw new Error("no nonce satisfies the regtest target");
  }
}

export function createGenesisBlock(): Block {
  const coinbase = new Transaction();
  coinbase.version = 1;
  coinbase.addInput(ZERO_HASH, 0xffffffff, 0xffffffff, Buffer.from(REGTEST_GENESIS.coinbaseScriptSig, "hex"));
  coinbase.addOutput(Buffer.from(REGTEST_GENESIS.coinbaseOutputScript, "hex"), REGTEST.initialSubsidy);
  const block = new Block();
  block.version = REGTEST_GENESIS.version;
  block.prevHash = ZERO_HASH;
  block.timestamp = REGTEST_GENESIS.time;
  block.bits = REGTEST.bits;
  block.nonce = REGTEST_GENESIS.nonce;
  block.transactions = [coinbase];
  block.merkleRoot = merkleRoot([coinbase.getHash()]);
  return block;
}
