/**
 * Addresses and keys compare the way their encoding reads them: hex (EVM addresses, Bitcoin keys, swap
 * ids) and single-case bech32 (Bitcoin addresses) case-insensitively and with or without a 0x prefix;
 * anything else (base58: Solana addresses) exactly, since changing the case of a base58 letter spells
 * another key.
 */
export function sameParty(a: string, b: string): boolean {
  return normalizeParty(a) === normalizeParty(b);
}

const HEX = /^(0x)?[0-9a-f]+$/i;
const BECH32 = /^[a-z0-9]+1[a-z0-9]+$/;

export function normalizeParty(value: string): string {
  const lower = value.toLowerCase();
  if (HEX.test(value)) return lower.replace(/^0x/, "");
  const singleCase = value === lower || value === value.toUpperCase();
  return singleCase && BECH32.test(lower) ? lower : value;
}
