/**
 * The modelled gas of a transaction. There is no Cairo VM, so costs are fixed per kind of work, chosen to
 * be of the order live Starknet charges (a token transfer around a million l2 gas, storage diffs paid in
 * l1 data gas):
 * - validation (the account's `__validate__` signature check): VALIDATE_L2_GAS, and BASE_L1_DATA_GAS for
 *   the nonce and fee-balance updates every transaction writes;
 * - each call: CALL_L2_GAS plus CALLDATA_FELT_L2_GAS per calldata felt;
 * - each storage slot written: STORAGE_WRITE_L2_GAS and STORAGE_WRITE_L1_DATA_GAS;
 * - each event: EVENT_L2_GAS plus EVENT_FELT_L2_GAS per key or data felt;
 * - l1 gas: none (no L1 messages are modelled).
 */
export const VALIDATE_L2_GAS = 400_000n;
export const BASE_L1_DATA_GAS = 128n;
export const CALL_L2_GAS = 150_000n;
export const CALLDATA_FELT_L2_GAS = 2_000n;
export const STORAGE_WRITE_L2_GAS = 20_000n;
export const STORAGE_WRITE_L1_DATA_GAS = 64n;
export const EVENT_L2_GAS = 10_000n;
export const EVENT_FELT_L2_GAS = 1_000n;

export interface GasUsage {
  l1Gas: bigint;
  l2Gas: bigint;
  l1DataGas: bigint;
}

export class GasMeter {
  l2Gas = VALIDATE_L2_GAS;
  l1DataGas = BASE_L1_DATA_GAS;

  call(calldataLength: number): void {
    this.l2Gas += CALL_L2_GAS + CALLDATA_FELT_L2_GAS * BigInt(calldataLength);
  }

  storageWrite(slots = 1): void {
    this.l2Gas += STORAGE_WRITE_L2_GAS * BigInt(slots);
    this.l1DataGas += STORAGE_WRITE_L1_DATA_GAS * BigInt(slots);
  }

  event(felts: number): void {
    this.l2Gas += EVENT_L2_GAS + EVENT_FELT_L2_GAS * BigInt(felts);
  }

  usage(): GasUsage {
    return { l1Gas: 0n, l2Gas: this.l2Gas, l1DataGas: this.l1DataGas };
  }
}
