/**
 * Whether the code at Multicall3's address is Multicall3's, checked before the solver batches redeems,
 * refunds or order reads through it, as the BatchExecutor's code is before the account delegates to it
 * (delegation.ts). A chain where that address holds other code would otherwise be handed the solver's
 * calls, and could answer its order reads with whatever it likes: a source that is not there.
 *
 * Other code is not a reason to stop the chain: batching only saves fees and round trips, and the
 * solver is as correct with one call per transaction and one read per order; stopping would also stop
 * the redeems and refunds of orders it already filled. So it is logged at `error`, naming the chain
 * and the address, and nothing goes through that address.
 */
import { pino, type Logger } from "pino";
import { keccak256, type Hex, type PublicClient } from "viem";
import { ContractArtifactsMissingError, loadArtifact } from "../artifacts.js";
import { MULTICALL3_ADDRESS } from "./multicall3.js";

/**
 * keccak256 of the runtime code the canonical deployment left at MULTICALL3_ADDRESS: the 3 808 bytes after
 * the 32-byte constructor of the init code in the presigned deployment transaction that the Multicall3
 * repository publishes (github.com/mds1/multicall3, "New Deployments"). Every chain deployed by that
 * transaction, and every OP Stack chain that carries Multicall3 as a preinstall, holds these bytes.
 */
export const MULTICALL3_RUNTIME_CODE_HASH: Hex =
  "0xd5c15df687b16f2ff992fc8d767b4216323184a2bbc6ee2f9c398c318e770891";

/** What the code at Multicall3's address is. */
export type Multicall3Code = "multicall3" | "absent" | "other";

/**
 * The runtime code hashes taken as Multicall3: the canonical deployment's, and the project's own
 * Multicall-compatible contract (contracts/evm/Multicall.sol), which the local chains carry at that
 * address; the latter only where the contracts are built.
 */
export function acceptedMulticall3CodeHashes(): Hex[] {
  try {
    return [MULTICALL3_RUNTIME_CODE_HASH, keccak256(loadArtifact("Multicall").deployedBytecode)];
  } catch (error) {
    if (!(error instanceof ContractArtifactsMissingError)) throw error;
    return [MULTICALL3_RUNTIME_CODE_HASH];
  }
}

export function judgeMulticall3Code(code: Hex | undefined, accepted: readonly Hex[]): Multicall3Code {
  if (code === undefined || code === "0x") return "absent";
  return accepted.includes(keccak256(code)) ? "multicall3" : "other";
}

/**
 * One chain's answer to "may calls and reads go through Multicall3 here?", read once and shared by the
 * chain's reader and executor; a read that failed is tried again at the next question.
 */
export class Multicall3Check {
  #usable: Promise<boolean> | null = null;
  readonly #log: Logger;

  constructor(
    private readonly client: Pick<PublicClient, "getCode">,
    private readonly chain: string,
    logger?: Logger,
  ) {
    this.#log = logger ?? pino({ level: "silent" });
  }

  usable(): Promise<boolean> {
    this.#usable ??= this.#check().catch((error: unknown) => {
      this.#usable = null;
      throw error;
    });
    return this.#usable;
  }

  async #check(): Promise<boolean> {
    const code = await this.client.getCode({ address: MULTICALL3_ADDRESS });
    const verdict = judgeMulticall3Code(code, acceptedMulticall3CodeHashes());
    const fields = { chain: this.chain, multicall3: MULTICALL3_ADDRESS };
    if (verdict === "absent") {
      this.#log.warn(
        fields,
        "no Multicall3 at its canonical address: redeems, refunds and order reads go one by one",
      );
    } else if (verdict === "other") {
      this.#log.error(
        { ...fields, codeHash: keccak256(code ?? "0x") },
        "the code at Multicall3's address is not Multicall3's: nothing goes through it, redeems, refunds and order reads go one by one",
      );
    }
    return verdict === "multicall3";
  }
}
