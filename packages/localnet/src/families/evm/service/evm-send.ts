/**
 * Transactions the relayer pays for. Each is simulated first, so a call that would revert is refused
 * with the contract's own error name instead of burning gas; sends on one chain run one at a time.
 */
import {
  BaseError,
  decodeErrorResult,
  encodeFunctionData,
  isHex,
  parseAbi,
  type Abi,
  type Address,
  type Hex,
} from "viem";
import { ContractArtifactsMissingError, loadArtifact } from "htlc-solver/chains/evm/artifacts.js";
import { htlcAbi } from "htlc-solver/chains/evm/htlc-abi.js";
import { gasWithMargin } from "../gas-margin.js";
import { RelayRejectedError } from "../../../service/chains/relay-error.js";
import type { EvmClients } from "./evm-clients.js";

export type HtlcWrite =
  | {
      functionName: "initiateWithSignature";
      args: readonly [Address, Address, bigint, bigint, Hex, Hex];
    }
  | { functionName: "redeem"; args: readonly [Hex, Hex] };

export function sendRelayed(clients: EvmClients, htlc: Address, call: HtlcWrite): Promise<Hex> {
  const data =
    call.functionName === "redeem"
      ? encodeFunctionData({ abi: htlcAbi, functionName: "redeem", args: call.args })
      : encodeFunctionData({ abi: htlcAbi, functionName: "initiateWithSignature", args: call.args });
  return clients.sendQueue.add(async () => {
    const account = clients.walletClient.account;
    try {
      await clients.publicClient.call({ account, to: htlc, data });
    } catch (error) {
      throw new RelayRejectedError(
        `${call.functionName} on HTLC ${htlc} would revert: ${describeRevert(error)}`,
      );
    }
    const gas = await gasWithMargin(clients.publicClient, { account: account.address, to: htlc, data });
    return clients.walletClient.sendTransaction({ to: htlc, data, gas });
  });
}

const tokenErrorsAbi = parseAbi([
  "error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)",
  "error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)",
]);

let errorsAbi: Abi | null = null;

/** Custom errors of the compiled HTLCs when the build output is present, plus the ERC20 ones. */
function revertErrorsAbi(): Abi {
  if (errorsAbi !== null) return errorsAbi;
  const items: Abi[number][] = [...tokenErrorsAbi];
  for (const name of ["HTLC", "NativeHTLC"] as const) {
    try {
      items.push(...loadArtifact(name).abi.filter((item) => item.type === "error"));
    } catch (error) {
      if (!(error instanceof ContractArtifactsMissingError)) throw error;
    }
  }
  errorsAbi = items;
  return errorsAbi;
}

function describeRevert(error: unknown): string {
  if (!(error instanceof BaseError)) return String(error);
  const withData = error.walk((inner) => isHex((inner as { data?: unknown }).data));
  const data = (withData as { data?: unknown } | null)?.data;
  if (isHex(data) && data.length >= 10) {
    try {
      const decoded = decodeErrorResult({ abi: revertErrorsAbi(), data });
      const args = (decoded.args ?? []).map((arg) => String(arg)).join(", ");
      return `${decoded.errorName}(${args})`;
    } catch {
      return `revert data ${data}`;
    }
  }
  return error.shortMessage;
}
