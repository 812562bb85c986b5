/**
 * What a user who wants the solver's inventory does on the local Bitcoin chain, and what a test reads of
 * it: hold back every transaction below a fee rate (a node that does not relay, a miners' floor), flood an
 * address with outputs, redeem an HTLC output inside a transaction that spends other outputs too, and the
 * fee a mined transaction paid.
 */
import { address as btcAddress, Transaction } from "bitcoinjs-lib";
import { txidToHash } from "../../../src/chains/bitcoin/bytes.js";
import type { BitcoinHtlc } from "../../../src/chains/bitcoin/htlc.js";
import { redeemWitness, signLeaf, type PrevOut } from "../../../src/chains/bitcoin/htlc-witness.js";
import { feeForWeight } from "../../../src/chains/bitcoin/fee.js";
import type { BitcoinRegtestNode } from "@htlc-solver/localnet/families/bitcoin/chain/index.js";
import type { LocalUser } from "@htlc-solver/localnet/user.js";
import { RBF_SEQUENCE } from "../../../src/chains/bitcoin/wallet.js";
import { waitFor, type TestLocalnet } from "../../support/localnet.js";

/** The localnet's regtest node, driven in this process. */
function regtestNode(t: TestLocalnet): BitcoinRegtestNode {
  const node = (t.net.bitcoin.regtest as { node?: BitcoinRegtestNode }).node;
  if (node === undefined) throw new Error("the localnet's Bitcoin node does not run in this process");
  return node;
}

/**
 * From now on blocks take only packages paying at least `satVb` (bitcoind's -blockmintxfee): cheaper
 * transactions stay in the mempool. Returns what puts the floor back.
 */
export function mineOnlyAbove(t: TestLocalnet, satVb: bigint): () => void {
  const node = regtestNode(t);
  const before = node.blockMinFeeRateSatKvB;
  node.blockMinFeeRateSatKvB = satVb * 1000n;
  return () => {
    node.blockMinFeeRateSatKvB = before;
  };
}

/** Confirmed satoshis paying an address now. */
export async function confirmedAt(t: TestLocalnet, address: string): Promise<bigint> {
  const scan = await t.net.bitcoin.rpc.scanTxOutSet([address]);
  return scan.unspents.reduce((sum, u) => sum + u.amountSats, 0n);
}

export async function minedBitcoin(t: TestLocalnet, txid: string, timeoutMs = 60_000): Promise<void> {
  await waitFor(
    async () => (await t.net.bitcoin.rpc.getRawTransactionVerbose(txid)).blockhash !== undefined,
    `${txid} to be mined`,
    timeoutMs,
  );
}

/** The fee a mined transaction paid, as its block says. */
export async function minedFee(t: TestLocalnet, txid: string): Promise<bigint> {
  const { blockhash } = await t.net.bitcoin.rpc.getRawTransactionVerbose(txid);
  if (blockhash === undefined) throw new Error(`${txid} is not mined`);
  const block = await t.net.bitcoin.rpc.getBlock(blockhash, 2);
  const fee = block.tx.find((tx) => tx.txid === txid)?.feeSats;
  if (fee === undefined) throw new Error(`block ${blockhash} gives no fee for ${txid}`);
  return fee;
}

/**
 * `transactions` payments from the user's wallet, each paying `perTransaction` outputs of `value` to the
 * address, at `feeRateSatVb`, each waited into a block when `mine` is set (a wallet chains at most 25
 * unconfirmed payments). Returns their txids.
 */
export async function flood(
  t: TestLocalnet,
  user: LocalUser,
  address: string,
  options: {
    transactions: number;
    perTransaction: number;
    value: bigint;
    feeRateSatVb: bigint;
    mine: boolean;
  },
): Promise<string[]> {
  const txids: string[] = [];
  for (let i = 0; i < options.transactions; i++) {
    const outputs = Array.from({ length: options.perTransaction }, () => ({ address, value: options.value }));
    const txid = await user.bitcoin.pay(outputs, options.feeRateSatVb);
    txids.push(txid);
    if (options.mine) await minedBitcoin(t, txid);
  }
  return txids;
}

/** An output to spend: a wallet output of the user's (key path) or an HTLC output by its redeem leaf. */
export type SpentOutput =
  | { kind: "wallet"; txid: string; vout: number; value: bigint }
  | { kind: "redeem"; htlc: BitcoinHtlc; txid: string; vout: number; value: bigint; secret: Uint8Array };

/**
 * One transaction spending every given output, in the order given, to the user's wallet: wallet outputs by
 * the user's key path, HTLC outputs by their redeem leaf with the user's key and the secret. Returns it
 * signed; the caller broadcasts it.
 */
export function spendTogether(user: LocalUser, spent: SpentOutput[], feeRateSatVb: bigint): Transaction {
  const key = user.bitcoin.key;
  const network = spent.find((s) => s.kind === "redeem")?.htlc.network;
  if (network === undefined) throw new Error("spendTogether needs an HTLC output to learn the network");
  const wallet = key.walletPayment(network);
  const prevouts: PrevOut[] = spent.map((s) => ({
    script: s.kind === "wallet" ? wallet.output : s.htlc.outputScript,
    value: s.value,
  }));
  const build = (fee: bigint): Transaction => {
    const tx = new Transaction();
    tx.version = 2;
    for (const s of spent) tx.addInput(txidToHash(s.txid), s.vout, RBF_SEQUENCE);
    const total = spent.reduce((sum, s) => sum + s.value, 0n);
    tx.addOutput(btcAddress.toOutputScript(user.bitcoin.address, network), total - fee);
    spent.forEach((s, index) => {
      if (s.kind === "redeem") {
        tx.setWitness(
          index,
          redeemWitness(s.htlc, signLeaf(key, tx, index, prevouts, s.htlc, "redeem"), s.secret),
        );
      } else {
        const hash = tx.hashForWitnessV1(
          index,
          prevouts.map((p) => p.script),
          prevouts.map((p) => p.value),
          Transaction.SIGHASH_DEFAULT,
        );
        tx.setWitness(index, [key.signKeyPath(hash)]);
      }
    });
    return tx;
  };
  // Signed once to learn its exact weight, then again with the fee that weight asks.
  return build(feeForWeight(build(0n).weight(), feeRateSatVb));
}
