/** Addresses and keys compare case-insensitively and with or without a 0x prefix. */
export function sameParty(a: string, b: string): boolean {
  return normalizeParty(a) === normalizeParty(b);
}

export function normalizeParty(value: string): string {
  return value.toLowerCase().replace(/^0x/, "");
}
