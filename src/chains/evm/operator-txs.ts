/**
 * The operator's EVM transactions: a payment of the coin or of a token out of the solver's account, and
 * an approve of an exact amount to a token's HTLC. Built as calls and signed by the executor like its
 * own (simulated first, under the journal's next nonce), never sent here.
 */
import { encodeFunctionData, getAddress, type Address } from "viem";
import type { OperatorTransfers, SignedOperatorTx, TokenAllowances, Transfer } from "../chain.js";
import { checkEvmAddress } from "../../config/evm-address.js";
import { resolveEvmAsset } from "./assets.js";
import type { EvmChainConfig } from "./config.js";
import { erc20Abi } from "./htlc-abi.js";
import type { EvmCall } from "./htlc-calls.js";

export interface OperatorSigner {
  config: EvmChainConfig;
  /** Simulates and signs `call` under the next nonce; never sends. */
  signOperatorCall(
    call: EvmCall & { value: bigint },
    label: "withdraw" | "approve",
  ): Promise<SignedOperatorTx>;
  /** The account's allowance of the asset's token to its HTLC now. */
  allowanceOf(asset: string): Promise<bigint>;
}

function addressProblem(to: string): string | null {
  const problem = checkEvmAddress(to);
  if (problem !== null) return problem;
  return /^0x0{40}$/i.test(to) ? `${to} is the zero address` : null;
}

function recipient(to: string): Address {
  const problem = addressProblem(to);
  if (problem !== null) throw new Error(problem);
  return getAddress(to);
}

export function evmOperatorTransfers(signer: OperatorSigner): OperatorTransfers {
  return {
    addressProblem,
    buildTransfer: ({ asset, amount, to }: Transfer) => {
      const { token } = resolveEvmAsset(signer.config, asset);
      const payee = recipient(to);
      const call =
        token === null
          ? { to: payee, data: "0x" as const, value: amount }
          : {
              to: token,
              data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [payee, amount] }),
              value: 0n,
            };
      return signer.signOperatorCall(call, "withdraw");
    },
  };
}

export function evmTokenAllowances(signer: OperatorSigner): TokenAllowances {
  return {
    allowance: async (asset) => {
      const resolved = resolveEvmAsset(signer.config, asset);
      if (resolved.token === null) return null;
      return { spender: resolved.htlc, allowance: await signer.allowanceOf(resolved.id) };
    },
    buildApproval: (asset, amount) => {
      const resolved = resolveEvmAsset(signer.config, asset);
      if (resolved.token === null) throw new Error(`${resolved.id} is the chain's coin: it has no allowance`);
      const data = encodeFunctionData({
        abi: erc20Abi,
        functionName: "approve",
        args: [resolved.htlc, amount],
      });
      return signer.signOperatorCall({ to: resolved.token, data, value: 0n }, "approve");
    },
  };
}
