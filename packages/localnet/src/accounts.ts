import { bytesToHex, type Address, type Hex } from "viem";
import { mnemonicToAccount } from "viem/accounts";

/**
 * Anvil's public default mnemonic. Every key below is known to the world: localnet only, never real funds.
 */
export const LOCALNET_MNEMONIC = "test test test test test test test test test test test junk";

export interface LocalnetAccount {
  address: Address;
  privateKey: Hex;
}

export function localnetAccount(index: number): LocalnetAccount {
  const account = mnemonicToAccount(LOCALNET_MNEMONIC, { addressIndex: index });
  const key = account.getHdKey().privateKey;
  if (!key) throw new Error(`no private key for localnet account ${index}`);
  return { address: account.address, privateKey: bytesToHex(key) };
}

/** Who holds which prefunded account on the localnet. */
export const LOCALNET_ROLES = {
  deployer: 0,
  solver: 1,
  relayer: 2,
  /** Test users take the accounts from here on. */
  firstUser: 3,
  /** Owns the localnet's price feeds and re-posts their answers (after the users' accounts). */
  priceKeeper: 9,
} as const;

/** Test users a localnet has unless asked for more (`LocalnetOptions.users`). */
export const LOCALNET_USER_COUNT = 3;

/** Anvil prefunds the first ten accounts of its mnemonic; users past that are funded by the localnet. */
export const ANVIL_PREFUNDED_ACCOUNTS = 10;

/**
 * The account of test user `i`: the prefunded accounts from `firstUser` up to the price keeper's, then
 * the mnemonic's accounts after the keeper's, so any number of users never collides with a role.
 */
export function localnetUserIndex(i: number): number {
  const prefundedUsers = LOCALNET_ROLES.priceKeeper - LOCALNET_ROLES.firstUser;
  return i < prefundedUsers
    ? LOCALNET_ROLES.firstUser + i
    : LOCALNET_ROLES.priceKeeper + 1 + (i - prefundedUsers);
}
