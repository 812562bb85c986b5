/**
 * Prefunded accounts of a test anvil. The mnemonic is anvil's public default, known to everyone:
 * these keys guard nothing and must never hold real funds.
 */
import { mnemonicToAccount, type HDAccount } from "viem/accounts";

export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

/** Account `index` (0-9 are prefunded with 10 000 ETH by anvil's defaults). */
export function anvilAccount(index: number): HDAccount {
  return mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
}
