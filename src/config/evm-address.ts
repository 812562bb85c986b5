import { getAddress, isAddress } from "viem";
import { describeValue } from "./checks.js";

/** Accepts an EIP-55 checksummed or all-lower-case 0x address; mixed case must carry a valid checksum. */
export function checkEvmAddress(value: unknown): string | null {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(value)) {
    return `${describeValue(value)} is not an EVM address (0x and 40 hex digits)`;
  }
  if (!isAddress(value, { strict: true })) {
    return `${describeValue(value)} has a wrong EIP-55 checksum; write it checksummed or all lower-case`;
  }
  return null;
}

/** Checksummed form, so addresses compare equal whatever case the operator wrote. */
export function normalizeEvmAddress(value: string): string {
  return getAddress(value);
}
