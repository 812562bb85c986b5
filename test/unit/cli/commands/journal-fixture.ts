/**
 * A journal on disk with three orders in known states, for the journal-reading commands:
 * - ACTIVE: filled (confirmed), its source redeem broadcast with the secret, last decision "wait";
 * - SETTLED: filled and redeemed, no longer followed;
 * - REFUSED: never filled, refused with a reason.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ActionRequest, SignedTx } from "../../../../src/chains/chain.js";
import { Journal } from "../../../../src/journal/journal.js";
import { claimOk } from "../../../support/journal-claims.js";
import { makeOrder, SECRET, SECRET_HASH } from "../../../support/order-fixture.js";
import { evmTerms } from "../../../support/memory-journal.js";

export const T0 = Date.parse("2030-01-01T00:00:00Z");
export const ACTIVE = "a1".repeat(32);
export const SETTLED = "5e".repeat(32);
export const REFUSED = "7f".repeat(32);
export { SECRET, SECRET_HASH };

export const FILL_TX = `0x${"f1".repeat(32)}`;
export const REDEEM_TX = `0x${"e1".repeat(32)}`;
/** Signed bytes: never printed (a redeem's bytes carry the secret). */
export const RAW_MARKER = "deadbeefcafe";

function request(orderId: string, kind: "fill" | "redeem"): ActionRequest {
  const fill = kind === "fill";
  return {
    kind,
    orderId,
    params: {
      chain: fill ? "arbitrum_localnet" : "ethereum_localnet",
      asset: fill ? "arbitrum_localnet:usdc" : "ethereum_localnet:usdc",
      swapId: (fill ? "bb" : "aa").repeat(32),
      initiator: "0xa1",
      redeemer: "0xb2",
      secretHash: SECRET_HASH,
      timelock: fill ? 600n : 7200n,
      amount: fill ? 990_000n : 1_000_000n,
    },
    ...(fill ? {} : { secret: SECRET }),
  };
}

function signed(chain: string, txHash: string, nonce: bigint): SignedTx {
  return {
    chain,
    txHash,
    raw: `0x02${RAW_MARKER}${SECRET}`,
    nonce,
    terms: evmTerms(2_000_000_000n),
  };
}

function act(journal: Journal, req: ActionRequest, txHash: string, nonce: bigint, at: number): number {
  const { action } = claimOk(journal, req, at);
  const attempt = journal.recordSigned([action.id], signed(req.params.chain, txHash, nonce), at);
  journal.markBroadcast(attempt.id, at + 100);
  return attempt.id;
}

/** Writes the journal and returns its path. */
export function writeFixtureJournal(): string {
  const path = join(mkdtempSync(join(tmpdir(), "cli-journal-")), "journal.sqlite");
  const journal = new Journal(path);
  try {
    const settled = makeOrder();
    settled.order_id = SETTLED;
    settled.status = "Redeemed";
    journal.upsertOrder(settled, T0);
    journal.markConfirmed(
      act(journal, request(SETTLED, "fill"), `0x${"51".repeat(32)}`, 1n, T0),
      10n,
      T0 + 1000,
    );
    journal.markConfirmed(
      act(journal, request(SETTLED, "redeem"), `0x${"52".repeat(32)}`, 1n, T0 + 2000),
      20n,
      T0 + 3000,
    );
    journal.markOrderDone(SETTLED);

    const refused = makeOrder();
    refused.order_id = REFUSED;
    journal.upsertOrder(refused, T0 + 4000);
    journal.recordDecision(
      REFUSED,
      "refuse",
      "quote_mismatch",
      "destination amount 2 exceeds the quote 1",
      T0 + 4000,
    );
    journal.markOrderDone(REFUSED);

    const active = makeOrder({ destination: { secret: SECRET, redeem_tx_hash: `0x${"d1".repeat(32)}` } });
    active.order_id = ACTIVE;
    active.status = "RedeemDetected";
    journal.upsertOrder(active, T0 + 5000);
    journal.recordDecision(ACTIVE, "wait", "source_confirmations", "1 of 2 confirmations", T0 + 5000);
    journal.markConfirmed(act(journal, request(ACTIVE, "fill"), FILL_TX, 2n, T0 + 6000), 30n, T0 + 7000);
    act(journal, request(ACTIVE, "redeem"), REDEEM_TX, 3n, T0 + 8000);
    // An error text that quotes the secret, as a node's revert message might.
    journal.failAction(journal.orderActions(ACTIVE)[1]!.id, `redeem(0x${SECRET}) reverted`, T0 + 9000);
    return path;
  } finally {
    journal.close();
  }
}
