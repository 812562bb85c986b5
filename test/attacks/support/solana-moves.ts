/**
 * What a user who wants the solver's inventory does on the local Solana cluster: redeem the solver's
 * fill and initiate the same terms again in the same transaction, fill a swap account's history with
 * cheap transactions that name it, lock an order's terms at a copy of the HTLC program the solver does
 * not read, initiate a destination's terms before the solver's fill (on the legacy programs: try to), and
 * take an expired swap back; and
 * what an operator does: move the solver's inventory away and back.
 */
import { createPrivateKey, sign } from "node:crypto";
import {
  ComputeBudgetProgram,
  Keypair,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
  type PublicKey,
} from "@solana/web3.js";
import type { SolanaAsset } from "../../../src/chains/solana/assets.js";
import { base58Decode } from "../../../src/chains/solana/base58.js";
import { TOKEN_PROGRAM_ID } from "../../../src/chains/solana/program-ids.js";
import {
  associatedTokenAddress,
  createAssociatedTokenAccountIdempotentInstruction,
} from "../../../src/chains/solana/spl-token.js";
import { legacyNativeInitiateInstruction } from "../../../src/chains/solana/legacy/native-instructions.js";
import { hexBytes, swapTermsOf } from "../../../src/chains/solana/swap-params.js";
import {
  htlcProgramBytes,
  type HtlcProgramName,
} from "@htlc-solver/localnet/families/solana/chain/programs.js";
import type { LocalUser } from "@htlc-solver/localnet/user.js";
import { recordParams } from "../../../src/orderbook/record-params.js";
import type { SwapRecord } from "../../../src/orderbook/types.js";
import type { TestLocalnet } from "../../support/localnet.js";

/** The swap account of a Solana swap record, as the user's wallet resolves it for the chain's programs. */
export function solanaSwapAccount(user: LocalUser, swap: SwapRecord): PublicKey {
  return user.solana.htlc.swapAddress(user.solana.asset(swap.asset), swapTermsOf(recordParams(swap)));
}

/** The swap living at a record's address at `asset`'s program, or null when nothing lives there. */
async function liveSwapOf(user: LocalUser, swap: SwapRecord, asset: SolanaAsset) {
  const address = user.solana.htlc.swapAddress(asset, swapTermsOf(recordParams(swap)));
  const { account } = await user.solana.rpc.getAccount(address, "confirmed");
  const live = account === null ? null : user.solana.htlc.decodeSwap(asset, address, account);
  if (live === null) throw new Error(`no live swap at ${address.toBase58()}`);
  return live;
}

/**
 * One transaction: redeem the live swap with the secret (the amount comes to the user) and initiate the
 * same terms again with the user's own funds, so the address holds a live swap of those terms once more.
 * On the legacy programs only the terms' initiator can initiate there: the user signs in its place, the
 * program refuses, and the whole transaction with it.
 */
export async function redeemAndInitiateAgain(
  user: LocalUser,
  swap: SwapRecord,
  secret: string,
): Promise<string> {
  const wallet = user.solana;
  const asset = wallet.asset(swap.asset);
  const live = await liveSwapOf(user, swap, asset);
  return wallet.send([
    wallet.htlc.redeem(asset, live, hexBytes(secret.replace(/^0x/, ""), 32, "secret")),
    wallet.htlc.version === "legacy"
      ? initiateInInitiatorsPlace(user, swap)
      : wallet.htlc.fill(asset, swapTermsOf(recordParams(swap)), wallet.keypair.publicKey),
  ]);
}

/** PKCS#8 wrapping of a raw Ed25519 seed, as node:crypto takes private keys. */
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/**
 * `count` transactions from the user that name `address` and move nothing (a transfer of 0 lamports to
 * it), each one landing on the local chain with its fee charged; `failing` ones ask to move more than the
 * user holds, and land failed. Returns the lamports they cost.
 */
export function spamAddress(
  t: TestLocalnet,
  user: LocalUser,
  address: PublicKey,
  count: number,
  options: { failing?: boolean } = {},
): bigint {
  const chain = t.net.solana.local.chain;
  const payer = user.solana.keypair;
  const before = chain.svm.balance(payer.publicKey);
  // Node's own Ed25519: thousands of signatures in the time the pure-JS one takes for hundreds.
  const key = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, payer.secretKey.subarray(0, 32)]),
    format: "der",
    type: "pkcs8",
  });
  for (let i = 0; i < count; i++) {
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: chain.latestBlockhash().blockhash,
      instructions: [
        // A price per transaction makes each one distinct; at a micro-lamport per unit it costs nothing.
        ComputeBudgetProgram.setComputeUnitPrice({ microLamports: i + 1 }),
        SystemProgram.transfer({
          fromPubkey: payer.publicKey,
          toPubkey: address,
          lamports: options.failing ? 10n ** 18n : 0n,
        }),
      ],
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.signatures[0] = sign(null, message.serialize(), key);
    chain.send(tx.serialize(), { skipPreflight: true });
  }
  return before - chain.svm.balance(payer.publicKey);
}

/**
 * Loads another copy of one of the HTLC programs at a fresh program id on the local cluster: the same
 * code, taking the same terms, at an address no configured chain names. Returns the asset as it would be
 * at that copy.
 */
export function htlcProgramCopy(t: TestLocalnet, user: LocalUser, assetId: string): SolanaAsset {
  const asset = user.solana.asset(assetId);
  const native = asset.mint === null;
  const program: HtlcProgramName =
    user.solana.htlc.version === "legacy"
      ? native
        ? "legacy_native_swaps"
        : "legacy_spl_swaps"
      : native
        ? "native_swaps"
        : "spl_swaps";
  const programId = Keypair.generate().publicKey;
  t.net.solana.local.chain.svm.addProgram(programId, htlcProgramBytes(program));
  return { ...asset, programId };
}

/**
 * The user initiates a swap record's terms at `asset`'s program (the configured one, or a copy), as
 * funder and rent sponsor, whoever the terms name as refundee: on a source, the user's own lock; on a
 * destination, the fill the solver was to make.
 */
export function initiateTerms(
  user: LocalUser,
  swap: SwapRecord,
  asset = user.solana.asset(swap.asset),
): Promise<string> {
  return user.solana.send([
    user.solana.htlc.fill(asset, swapTermsOf(recordParams(swap)), user.solana.keypair.publicKey),
  ]);
}

/**
 * On the legacy programs, an initiate of a record's terms at the address they live at (the one its
 * initiator's key derives, on a destination the solver's) signed by the user in the initiator's place:
 * the program derives the swap account from its signer, so it must refuse it. The SOL program's.
 */
function initiateInInitiatorsPlace(user: LocalUser, swap: SwapRecord): TransactionInstruction {
  const asset = user.solana.asset(swap.asset);
  const terms = swapTermsOf(recordParams(swap));
  if (user.solana.htlc.version !== "legacy" || asset.mint !== null) {
    throw new Error("only the legacy SOL program's initiate is built in the initiator's place");
  }
  const signedByUser = legacyNativeInitiateInstruction(asset.programId, {
    ...terms,
    refundee: user.solana.keypair.publicKey,
  });
  const keys = signedByUser.keys.map((key, i) =>
    i === 0 ? { ...key, pubkey: user.solana.htlc.swapAddress(asset, terms) } : key,
  );
  return new TransactionInstruction({ ...signedByUser, keys });
}

/** The user tries to initiate a record's legacy terms at the initiator's address (see above). */
export function initiateAtInitiatorsAddress(user: LocalUser, swap: SwapRecord): Promise<string> {
  return user.solana.send([initiateInInitiatorsPlace(user, swap)]);
}

/**
 * Refunds the live swap of a record's terms at `asset`'s program once it expired: the amount to its
 * refundee, the rent to its sponsor. Anyone may send a refund; the user pays its fee.
 */
export async function refundExpired(
  user: LocalUser,
  swap: SwapRecord,
  asset = user.solana.asset(swap.asset),
): Promise<string> {
  const live = await liveSwapOf(user, swap, asset);
  return user.solana.send([user.solana.htlc.refund(asset, live)]);
}

/** A throwaway account that holds the solver's inventory while it is away, and pays the moves' fees. */
const HOLDER = Keypair.fromSeed(new Uint8Array(32).fill(0x4e));
/** The SPL Token program's `Transfer` instruction. */
const TOKEN_TRANSFER = 3;

/**
 * Moves the solver's SOL or SPL tokens to or from a holding account, as an operator moving funds would:
 * its inventory falls, or comes back, between rounds. The holder pays every move's fee (and its token
 * account's rent), so the solver's holding changes by exactly `amount`. Returns the move's signature.
 */
export function moveSolverSolana(
  t: TestLocalnet,
  user: LocalUser,
  assetId: string,
  direction: "away" | "back",
  amount: bigint,
): string {
  const local = t.net.solana.local;
  const solver = Keypair.fromSecretKey(base58Decode(t.net.solverConfig.solver.keys.solana));
  const [from, to] = direction === "away" ? [solver, HOLDER] : [HOLDER, solver];
  local.fund(HOLDER.publicKey, 10_000_000n);
  const mint = user.solana.asset(assetId).mint;
  const instructions =
    mint === null
      ? [SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to.publicKey, lamports: amount })]
      : [
          createAssociatedTokenAccountIdempotentInstruction(HOLDER.publicKey, to.publicKey, mint),
          new TransactionInstruction({
            programId: TOKEN_PROGRAM_ID,
            keys: [
              { pubkey: associatedTokenAddress(from.publicKey, mint), isSigner: false, isWritable: true },
              { pubkey: associatedTokenAddress(to.publicKey, mint), isSigner: false, isWritable: true },
              { pubkey: from.publicKey, isSigner: true, isWritable: false },
            ],
            data: Buffer.concat([Buffer.of(TOKEN_TRANSFER), u64le(amount)]),
          }),
        ];
  const message = new TransactionMessage({
    payerKey: HOLDER.publicKey,
    recentBlockhash: local.chain.latestBlockhash().blockhash,
    instructions,
  }).compileToV0Message();
  const tx = new VersionedTransaction(message);
  tx.sign(direction === "away" ? [HOLDER, solver] : [HOLDER]);
  return local.chain.send(tx.serialize());
}

function u64le(value: bigint): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(value);
  return bytes;
}
