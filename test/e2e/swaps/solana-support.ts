/** Shared reads of the Solana swap tests on the localnet. */
import { PublicKey } from "@solana/web3.js";
import { base58Encode } from "../../../src/chains/solana/base58.js";
import { resolveSolanaAsset } from "../../../src/chains/solana/assets.js";
import { associatedTokenAddress } from "../../../src/chains/solana/spl-token.js";
import { htlcInterfaceOf } from "../../../src/chains/solana/htlc-interface.js";
import { swapTermsOf } from "../../../src/chains/solana/swap-params.js";
import { decodeHtlcEvents } from "../../../src/chains/solana/events.js";
import { decodeLegacyHtlcEvents } from "../../../src/chains/solana/legacy/events.js";
import { splVaultAddress } from "../../../src/chains/solana/pda.js";
import { tokenBalance } from "@htlc-solver/localnet/families/solana/user-solana.js";
import { recordParams } from "../../../src/orderbook/record-params.js";
import type { SwapRecord } from "../../../src/orderbook/types.js";
import type { TestLocalnet } from "../../support/localnet.js";
import type { SolanaChainConfig } from "../../../src/chains/solana/config.js";

export const SOL = "solana_localnet:sol";
export const SPL_USDC = "solana_localnet:usdc";

export function solanaConfig(t: TestLocalnet): SolanaChainConfig {
  const chain = t.net.solverConfig.chains.find((c) => c.family === "solana");
  if (chain?.family !== "solana") throw new Error("the localnet has no Solana chain");
  return chain;
}

/** The solver's holding of a Solana asset as the chain shows it (lamports, or its token account's units). */
export async function solverSolana(t: TestLocalnet, assetId: string): Promise<bigint> {
  const config = solanaConfig(t);
  const asset = resolveSolanaAsset(config, assetId);
  const solver = new PublicKey(t.net.descriptor.solver.solanaAddress);
  const rpc = t.user(0).solana.rpc;
  if (asset.mint === null) return (await rpc.getBalance(solver, "processed")).lamports;
  return tokenBalance(rpc, associatedTokenAddress(solver, asset.mint));
}

/** Whether the SPL program's vault of the localnet's USDC mint exists yet (its first swap creates it). */
export async function splVaultExists(t: TestLocalnet): Promise<boolean> {
  const asset = resolveSolanaAsset(solanaConfig(t), SPL_USDC);
  if (asset.mint === null) throw new Error(`${SPL_USDC} is not an SPL token`);
  const vault = splVaultAddress(asset.programId, asset.mint).address;
  return (await t.user(0).solana.rpc.getAccount(vault, "processed")).account !== null;
}

/** The swap account of a Solana swap record, for the programs' version the localnet runs. */
export function swapAccount(t: TestLocalnet, swap: SwapRecord): PublicKey {
  const config = solanaConfig(t);
  const asset = resolveSolanaAsset(config, swap.asset);
  return htlcInterfaceOf(config.programVersion).swapAddress(asset, swapTermsOf(recordParams(swap)));
}

/**
 * Every HTLC event of the swap's program in transactions that landed touching its account, read from
 * the local chain's own record (not through the solver's code): how many fills there really were.
 */
export function htlcEventsOf(
  t: TestLocalnet,
  swap: SwapRecord,
): { name: string; signature: string; fee: bigint }[] {
  const config = solanaConfig(t);
  const asset = resolveSolanaAsset(config, swap.asset);
  const decode = config.programVersion === "legacy" ? decodeLegacyHtlcEvents : decodeHtlcEvents;
  const chain = t.net.solana.local.chain;
  return chain
    .signaturesFor(swapAccount(t, swap))
    .filter((record) => record.err === null)
    .reverse()
    .flatMap((record) =>
      decode(asset.kind, asset.programId, record.logs).map((event) => ({
        name: event.name,
        signature: record.signature,
        fee: record.fee,
      })),
    );
}

/** Units the chain's HTLC program (of the version it runs) used in a landed transaction, from its "consumed" log line. */
export function programUnits(t: TestLocalnet, signature: string): bigint | null {
  const record = t.net.solana.local.chain.transaction(signature);
  const config = solanaConfig(t);
  const ids = [config.nativeProgramId, config.splProgramId];
  for (const line of record?.logs ?? []) {
    const m = /^Program (\w+) consumed (\d+) of \d+ compute units$/.exec(line);
    if (m?.[1] !== undefined && m[2] !== undefined && ids.includes(m[1])) return BigInt(m[2]);
  }
  return null;
}

/** The fee a landed Solana transaction paid, lamports. */
export function feeOf(t: TestLocalnet, signature: string): bigint {
  const record = t.net.solana.local.chain.transaction(signature);
  if (record === undefined) throw new Error(`transaction ${signature} has not landed`);
  return record.fee;
}

/** The fee of the solver's landed Solana attempt of an order's action, as the chain charged it. */
export function solanaFeeOfAction(t: TestLocalnet, orderId: string, kind: string): bigint {
  const journal = t.net.solver!.journal;
  const action = journal.orderActions(orderId).find((a) => a.kind === kind);
  const landed = action && journal.attemptsOfAction(action.id).find((a) => a.state === "confirmed");
  if (landed === undefined) throw new Error(`no landed ${kind} of order ${orderId}`);
  return feeOf(t, landed.txHash);
}

/** The signature of a wire transaction as sendTransaction takes it (base64): its first signature, base58. */
export function signatureOfWire(base64: string): string {
  const wire = Buffer.from(base64, "base64");
  // One signer: a one-byte count, then the 64-byte signature.
  return base58Encode(wire.subarray(1, 65));
}

/** Every output the solver's Bitcoin wallet address holds on chain (mined), sats. */
export async function solverBitcoin(t: TestLocalnet): Promise<bigint> {
  return (await t.net.bitcoin.rpc.scanTxOutSet([t.net.descriptor.solver.bitcoinAddress])).totalAmountSats;
}

/** The fee of the solver's landed attempt of an order's action, as journaled (Bitcoin: sats). */
export function bitcoinFeeOfAction(t: TestLocalnet, orderId: string, kind: string): bigint {
  const journal = t.net.solver!.journal;
  const action = journal.orderActions(orderId).find((a) => a.kind === kind);
  const landed = action && journal.attemptsOfAction(action.id).find((a) => a.state === "confirmed");
  if (landed?.terms.family !== "bitcoin") throw new Error(`no landed Bitcoin ${kind} of order ${orderId}`);
  return landed.terms.feeSats;
}
