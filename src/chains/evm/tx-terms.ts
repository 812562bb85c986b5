/** The terms an EVM transaction was signed with (EIP-1559), and their older journal form. */
import type { TermsCodec } from "../family-module.js";

export interface EvmTxTerms {
  family: "evm";
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  gas: bigint;
}

export const evmTermsCodec: TermsCodec<EvmTxTerms> = {
  // The flat maps of EVM transactions are the ones with a gas price.
  fromLegacy: (flat) => {
    if (flat.maxFeePerGas === undefined) return null;
    const big = (key: string): bigint => BigInt(String(flat[key] ?? "0"));
    return {
      family: "evm",
      maxFeePerGas: big("maxFeePerGas"),
      maxPriorityFeePerGas: big("maxPriorityFeePerGas"),
      gas: big("gas"),
    };
  },
};
