/**
 * What the crash loop checks once the solver has stopped: fills that landed twice, sources left
 * unredeemed after the user took the destination, and balances the swaps do not account for.
 */
import { PublicKey } from "@solana/web3.js";
import { resolveSolanaAsset } from "../../src/chains/solana/assets.js";
import { splVaultAddress } from "../../src/chains/solana/pda.js";
import type { Journal } from "../../src/journal/journal.js";
import { PnlStore } from "../../src/journal/pnl-store.js";
import type { Order } from "../../src/orderbook/types.js";
import { feeAssets } from "../../src/pnl/fee-assets.js";
import type { TestLocalnet } from "../support/localnet.js";
import { htlcEventsOf, solanaConfig } from "../e2e/swaps/solana-support.js";
import type { Family } from "./pairs.js";

/** Both sides redeemed, as the service shows them. */
export const isCompleted = (o: Order): boolean =>
  o.destination_swap.redeem_tx_hash !== "" && o.source_swap.redeem_tx_hash !== "";

/** The user redeemed the destination and the solver never redeemed the source. */
export const isMissedRedeem = (o: Order): boolean =>
  o.destination_swap.redeem_tx_hash !== "" && o.source_swap.redeem_tx_hash === "";

/**
 * Orders whose fill landed more than once, each judged on its destination chain: on an EVM chain more
 * than one mined attempt of the journal's fill; on Bitcoin more than one mined transaction paying the
 * destination address (every block from `bitcoinFromHeight` on); on Solana more than one landed
 * `Initiated` event at the destination's swap account.
 */
export async function doubleFills(
  t: TestLocalnet,
  journal: Journal,
  orders: readonly Order[],
  familyOf: (chain: string) => Family,
  bitcoinFromHeight: number,
): Promise<Set<string>> {
  const bitcoinAddresses = orders
    .filter((o) => familyOf(o.destination_swap.chain) === "bitcoin")
    .map((o) => o.destination_swap.swap_id);
  const payments = await bitcoinPayments(t, bitcoinAddresses, bitcoinFromHeight);
  const doubled = new Set<string>();
  for (const order of orders) {
    const destination = order.destination_swap;
    let landed: number;
    switch (familyOf(destination.chain)) {
      case "evm": {
        const fill = journal.orderActions(order.order_id).find((a) => a.kind === "fill");
        landed = fill
          ? journal.attemptsOfAction(fill.id).filter((a) => a.state === "confirmed" && a.purpose === "action")
              .length
          : 0;
        break;
      }
      case "bitcoin":
        landed = payments.get(destination.swap_id)?.size ?? 0;
        break;
      case "solana":
        landed = htlcEventsOf(t, destination).filter((e) => e.name === "Initiated").length;
        break;
      case "starknet":
        // The local system has no Starknet chain yet: the crash loop's mix holds no Starknet swap.
        throw new Error(`order ${order.order_id}: no fill count for Starknet destinations`);
      case "sui":
        // The local system has no Sui chain yet: the crash loop's mix holds no Sui swap.
        throw new Error(`order ${order.order_id}: no fill count for Sui destinations`);
    }
    if (landed > 1) doubled.add(order.order_id);
  }
  return doubled;
}

/** The mined transactions paying each address, from the node's blocks. */
async function bitcoinPayments(
  t: TestLocalnet,
  addresses: readonly string[],
  fromHeight: number,
): Promise<Map<string, Set<string>>> {
  const paying = new Map(addresses.map((a) => [a, new Set<string>()]));
  if (paying.size === 0) return paying;
  const rpc = t.net.bitcoin.rpc;
  const tip = await rpc.getBlockCount();
  for (let height = fromHeight; height <= tip; height++) {
    const block = await rpc.getBlock(await rpc.getBlockHash(height), 2);
    for (const tx of block.tx) {
      for (const out of tx.vout) paying.get(out.scriptPubKey.address ?? "")?.add(tx.txid);
    }
  }
  return paying;
}

/**
 * What the solver paid beside the swaps, per asset: the network fees its journal records as paid (every
 * attempt that landed, failed or not), and the rent of the program vaults its fills created.
 */
export function costsPaid(
  journal: Journal,
  t: TestLocalnet,
  vaultsBefore: readonly PublicKey[],
): Map<string, bigint> {
  const feeAssetOf = feeAssets(t.net.solverConfig.chains);
  const attempts = journal.recentAttempts(Number.MAX_SAFE_INTEGER);
  const fees = new PnlStore(journal.database).feesPaid(attempts.map((a) => a.id));
  const costs = new Map<string, bigint>();
  const add = (asset: string, amount: bigint) => costs.set(asset, (costs.get(asset) ?? 0n) + amount);
  for (const attempt of attempts) {
    const fee = fees.get(attempt.id);
    if (fee !== undefined) add(feeAssetOf(attempt.chain).id, fee);
  }
  add(feeAssetOf(solanaConfig(t).name).id, vaultRentPaidBySolver(t, vaultsBefore));
  return costs;
}

/** The Solana program vault of each SPL asset among these that does not exist yet. */
export async function absentSplVaults(t: TestLocalnet, assetIds: readonly string[]): Promise<PublicKey[]> {
  const config = solanaConfig(t);
  const absent: PublicKey[] = [];
  for (const id of assetIds) {
    if (!config.assets.some((a) => a.id === id)) continue;
    const asset = resolveSolanaAsset(config, id);
    if (asset.mint === null) continue;
    const vault = splVaultAddress(asset.programId, asset.mint).address;
    if ((await t.user(0).solana.rpc.getAccount(vault, "processed")).account === null) absent.push(vault);
  }
  return absent;
}

/**
 * Rent (lamports) of these program vaults that a transaction paid by the solver created: a mint's first
 * swap creates its vault, paid by that swap's rent sponsor, and a vault is never closed. Read from the
 * chain's record of the creating transaction.
 */
function vaultRentPaidBySolver(t: TestLocalnet, vaults: readonly PublicKey[]): bigint {
  const solver = new PublicKey(t.net.descriptor.solver.solanaAddress);
  let rent = 0n;
  for (const vault of vaults) {
    const created = t.net.solana.local.chain
      .signaturesFor(vault)
      .filter((r) => r.err === null)
      .at(-1);
    if (created === undefined) continue;
    const keys = created.transaction.message.staticAccountKeys;
    if (!keys[0]?.equals(solver)) continue;
    const index = keys.findIndex((k) => k.equals(vault));
    rent += (created.postBalances[index] ?? 0n) - (created.preBalances[index] ?? 0n);
  }
  return rent;
}

/**
 * Assets whose change in the solver's holdings differs from what the completed swaps say (sources in,
 * destinations out) less `costs` (network fees and rent it paid, per asset).
 */
export function balanceMismatches(
  before: ReadonlyMap<string, bigint>,
  after: ReadonlyMap<string, bigint>,
  completed: readonly Order[],
  costs: ReadonlyMap<string, bigint>,
): Map<string, string> {
  const expected = new Map<string, bigint>();
  const add = (asset: string, amount: bigint) => expected.set(asset, (expected.get(asset) ?? 0n) + amount);
  for (const o of completed) {
    add(o.source_swap.asset, BigInt(o.source_swap.amount));
    add(o.destination_swap.asset, -BigInt(o.destination_swap.amount));
  }
  for (const [asset, cost] of costs) add(asset, -cost);
  const mismatches = new Map<string, string>();
  for (const [asset, held] of before) {
    const moved = (after.get(asset) ?? 0n) - held;
    const want = expected.get(asset) ?? 0n;
    if (moved !== want)
      mismatches.set(asset, `${asset}: moved ${moved}, swaps and fees say ${want} (off by ${moved - want})`);
  }
  return mismatches;
}
