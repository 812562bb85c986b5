/**
 * The solver's account delegating to the project's BatchExecutor with EIP-7702, so that it can batch
 * fills. Done once per chain at start: the code at the configured executor address must be the
 * BatchExecutor's own (a wrong address would hand the account's calls to someone else's code), and an
 * account already delegated to anything else is left alone and refused.
 */
import {
  concat,
  isAddressEqual,
  keccak256,
  type Address,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
} from "viem";
import { loadArtifact } from "../artifacts.js";
import type { Eip1559Fees } from "../fee-policy.js";
import type { EvmNonceManager } from "../nonce-manager.js";

/** EIP-7702's delegation designator: the code an account has while delegated, followed by the address. */
const DESIGNATOR_PREFIX = "0xef0100";
/** An authorization costs 25 000 gas on top of the transaction; the self-call runs an empty receive. */
const DELEGATION_GAS = 100_000n;

export class DelegationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DelegationError";
  }
}

/** The address an account delegates to, from its code; null when it has no delegation (no code). */
export function delegationOf(code: Hex | undefined): Address | null {
  if (code === undefined || code === "0x") return null;
  const lower = code.toLowerCase();
  if (!lower.startsWith(DESIGNATOR_PREFIX) || lower.length !== DESIGNATOR_PREFIX.length + 40) {
    throw new DelegationError(
      `the solver's account has contract code that is not an EIP-7702 delegation (${code.slice(0, 20)}...)`,
    );
  }
  return `0x${lower.slice(DESIGNATOR_PREFIX.length)}`;
}

export interface DelegationDeps {
  chain: string;
  chainId: number;
  client: PublicClient;
  account: PrivateKeyAccount;
  executor: Address;
  nonces: EvmNonceManager;
  fees: () => Promise<Eip1559Fees>;
  broadcast: (tx: { raw: Hex; txHash: Hex }) => Promise<void>;
  /** How long to wait for the delegating transaction's receipt. */
  timeoutMs: number;
}

/** A delegating transaction on its way: `confirmed` settles once its receipt shows the delegation in force. */
export interface DelegationSent {
  txHash: Hex;
  confirmed(): Promise<void>;
}

/**
 * Checks the executor's code, then sends the delegating transaction unless the account already delegates
 * to it (null). The caller may send more of the account's transactions before awaiting `confirmed`: they
 * take the following nonces and land in the same block.
 */
export async function sendDelegation(deps: DelegationDeps): Promise<DelegationSent | null> {
  const { client, account, executor, chain } = deps;
  const deployed = await client.getCode({ address: executor });
  const expected = loadArtifact("BatchExecutor").deployedBytecode;
  if (deployed === undefined || keccak256(deployed) !== keccak256(expected)) {
    throw new DelegationError(
      `batchExecutor ${executor} on ${chain} does not hold the project's BatchExecutor code ` +
        `(${deployed === undefined || deployed === "0x" ? "no code" : "other code"}); deploy contracts/evm/BatchExecutor.sol ` +
        `there or correct the address`,
    );
  }
  const current = delegationOf(await client.getCode({ address: account.address }));
  if (current !== null) {
    if (isAddressEqual(current, executor)) return null;
    throw new DelegationError(
      `the solver's account on ${chain} already delegates to ${current}, not to batchExecutor ${executor}; ` +
        `the solver does not replace a delegation it did not make: remove it, or set batchFills "none"`,
    );
  }
  // The account sends the transaction itself, so its nonce is one higher when the authorization is
  // processed, and the authorization consumes that nonce too: the next transaction takes nonce + 2.
  const signed = await deps.nonces.withNextNonces(2, async (nonce) => {
    const authorization = await account.signAuthorization({
      contractAddress: executor,
      chainId: deps.chainId,
      nonce: Number(nonce) + 1,
    });
    const fees = await deps.fees();
    const raw = await account.signTransaction({
      type: "eip7702",
      chainId: deps.chainId,
      nonce: Number(nonce),
      to: account.address,
      data: "0x",
      value: 0n,
      gas: DELEGATION_GAS,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      authorizationList: [authorization],
    });
    return { raw, txHash: keccak256(raw) };
  });
  await deps.broadcast(signed);
  const confirmed = async (): Promise<void> => {
    const receipt = await client.waitForTransactionReceipt({ hash: signed.txHash, timeout: deps.timeoutMs });
    const now = delegationOf(await client.getCode({ address: account.address }));
    if (receipt.status !== "success" || now === null || !isAddressEqual(now, executor)) {
      throw new DelegationError(
        `delegating the solver's account on ${chain} to ${executor} did not take effect (transaction ${signed.txHash})`,
      );
    }
  };
  return { txHash: signed.txHash, confirmed };
}

/** The code an account has while delegated to `executor`. */
export function designatorOf(executor: Address): Hex {
  return concat([DESIGNATOR_PREFIX, executor]);
}
