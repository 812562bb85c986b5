/** Private keys the service made for Bitcoin HTLCs, looked up by the swap (HTLC address) they lock. */
import type { ServiceDb } from "./db.js";

export interface OrderKey {
  side: "source" | "destination";
  /** The HTLC address the key belongs to. */
  swapId: string;
  /** 32-byte private key, hex. */
  privateKey: string;
}

export function insertOrderKeys(db: ServiceDb, orderId: string, keys: OrderKey[]): void {
  const insert = db.prepare(
    "INSERT INTO order_keys (order_id, side, swap_id, private_key) VALUES (?, ?, ?, ?)",
  );
  for (const key of keys) insert.run(orderId, key.side, key.swapId, key.privateKey);
}

export class KeyStore {
  constructor(private readonly db: ServiceDb) {}

  /** The private key (hex) of the service's party in the HTLC at `swapId`, if the service holds one. */
  privateKeyOf(swapId: string): string | undefined {
    const row = this.db
      .prepare<[string], { private_key: string }>("SELECT private_key FROM order_keys WHERE swap_id = ?")
      .get(swapId);
    return row?.private_key;
  }
}
