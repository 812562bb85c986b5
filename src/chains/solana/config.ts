/**
 * A Solana chain's settings besides the common ones (src/config/common-chain.ts), its assets' address
 * rules and its key: what the configuration asks of the family. Timelocks and confirmations are in
 * slots; the block times are slot times.
 */
import { z } from "zod";
import type { ChainConfigSpec } from "../../config/chain-spec.js";
import { describeValue } from "../../config/checks.js";
import type { CommonChainConfig } from "../../config/common-chain.js";
import { amount, integer, oneOf, setting, urlList } from "../../config/zod/values.js";
import { defaultMaxHeadAgeMs } from "../rpc/head-age.js";
import { solanaAddressProblem } from "./address.js";
import { isNativeSol } from "./assets.js";
import { knownClusterProblems } from "./known-mints.js";
import { readSolanaSecretKey, solanaSecretKeyText } from "./keypair.js";
import { SOLANA_PROGRAM_VERSIONS } from "./program-version.js";

/** Commitment levels the solver reads a Solana cluster at. */
export const SOLANA_COMMITMENTS = ["confirmed", "finalized"] as const;
export type SolanaCommitment = (typeof SOLANA_COMMITMENTS)[number];

/** A base58 address of 32 bytes. */
const address = (hint = "") =>
  setting<string>((value) => {
    const problem = typeof value === "string" ? solanaAddressProblem(value) : "must be a string";
    return problem === null
      ? { value: value as string }
      : { problem: `${describeValue(value)} ${problem}${hint}` };
  }, "");

/**
 * Program ids are required: the live deployments differ by version and network, and the solver never
 * assumes one.
 */
const solanaFields = z.object({
  /** The chain id the service hashes into the API's Solana swap ids (103 on the test network). */
  chainId: integer(0),
  rpcUrls: urlList(true),
  /** HTLC program for native SOL (base58). */
  nativeProgramId: address(),
  /** HTLC program for SPL tokens (base58). */
  splProgramId: address(),
  /** The interface both program ids speak; one version per chain. */
  programVersion: oneOf(SOLANA_PROGRAM_VERSIONS, { default: "current" }),
  /**
   * Commitment the solver reads accounts, tips and history at. A source's confirmations are counted in
   * slots at this commitment; the solver's own transactions count as mined once `confirmed`.
   */
  commitment: oneOf(SOLANA_COMMITMENTS, { default: "confirmed" }),
  /** Bounds of the compute unit price the solver pays (priority fee), micro-lamports per unit. */
  computeUnitPriceFloorMicroLamports: amount({ default: 0n }),
  computeUnitPriceCeilingMicroLamports: amount({ default: 1_000_000n }),
});

export type SolanaChainConfig = CommonChainConfig & z.output<typeof solanaFields> & { family: "solana" };

/** An asset's token is its SPL mint or `native`; its HTLC is the chain's program for it, and may be left out. */
function solanaAddresses(chain: SolanaChainConfig) {
  return z
    .object({
      tokenAddress: setting<string>((value) => {
        if (value === "native") return { value };
        const problem = typeof value === "string" ? solanaAddressProblem(value) : "must be a string";
        if (problem === null) return { value: value as string };
        return { problem: `${describeValue(value)} ${problem}; give the SPL mint or "native"` };
      }, ""),
      htlcAddress: z.unknown().optional(),
    })
    .superRefine((asset, ctx) => {
      const native = asset.tokenAddress === "native";
      const program = native ? chain.nativeProgramId : chain.splProgramId;
      if (asset.htlcAddress !== undefined && asset.htlcAddress !== program) {
        const which = native ? "nativeProgramId" : "splProgramId";
        const message = `${describeValue(asset.htlcAddress)} must be the chain's ${which} ${program}, or be left out`;
        ctx.addIssue({ code: "custom", path: ["htlcAddress"], message });
      }
      asset.htlcAddress = program;
    }) as unknown as z.ZodType<{ tokenAddress: string; htlcAddress: string }, unknown>;
}

export const solanaConfigSpec = {
  name: "solana",
  fields: solanaFields,
  commonDefaults: { finalityDepth: 32, bumpAfterMs: 30_000, maxHeadLagBlocks: 75, rpcTimeoutMs: 15_000 },
  defaultMaxHeadAgeMs,
  assetAddresses: solanaAddresses,
  checkKnownNetwork: knownClusterProblems,
  settle: (chain, report) => {
    if (chain.nativeProgramId !== "" && chain.nativeProgramId === chain.splProgramId)
      report("splProgramId", "must differ from nativeProgramId");
    if (chain.computeUnitPriceFloorMicroLamports > chain.computeUnitPriceCeilingMicroLamports) {
      const floor = chain.computeUnitPriceFloorMicroLamports;
      report(
        "computeUnitPriceFloorMicroLamports",
        `${floor} must not exceed computeUnitPriceCeilingMicroLamports`,
      );
    }
    if (chain.assets.filter(isNativeSol).length > 1) report("assets", "lists the native coin more than once");
  },
  key: {
    doc: "Secret key (64 bytes, base58, or solana-keygen's JSON array) for Solana.",
    env: "SOLVER_SOLANA_PRIVATE_KEY",
    keyFileForm: "<base58>",
    normalize: (value) => {
      const reading = readSolanaSecretKey(value);
      if ("problem" in reading)
        return { problem: `is not a Solana secret key: it ${reading.problem} (value not shown)` };
      return { value: solanaSecretKeyText(reading.keypair) };
    },
  },
  endpointVariables: [{ suffix: "RPC_URLS", key: "rpcUrls", list: true }],
  readsPriceFeeds: false,
} satisfies ChainConfigSpec<"solana", SolanaChainConfig>;
