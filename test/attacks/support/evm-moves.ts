/**
 * What a user who wants the solver's inventory does on the local EVM chains: hold a chain's blocks back,
 * lock a source on another copy of the HTLC, fund a destination in the solver's name, send tokens straight
 * to an HTLC, replay a signed initiation, call the HTLC through a contract wallet of their own, and log
 * events shaped like the HTLC's from a contract of their own.
 */
import {
  concat,
  createPublicClient,
  encodeAbiParameters,
  encodeFunctionData,
  toEventSelector,
  createWalletClient,
  http,
  maxUint256,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { erc20Abi, htlcAbi } from "../../../src/chains/evm/htlc-abi.js";
import { htlcErrorAbi } from "../../../src/chains/evm/htlc-errors.js";
import { evmOrderId } from "../../../src/chains/evm/order-id.js";
import { loadArtifact } from "../../../src/chains/evm/artifacts.js";
import { deployHtlc, deployTestSmartWallet } from "@htlc-solver/localnet/families/evm/deploy-evm.js";
import type { LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order, SwapRecord } from "../../../src/orderbook/types.js";
import { anvilCall, type TestLocalnet } from "../../support/localnet.js";
import { evmClients, minedAttempts, solverHolds } from "./attack-net.js";

/** The HTLC's functions with its custom errors, so a refused call names the contract's reason. */
const HTLC_ABI: Abi = [...htlcAbi, ...htlcErrorAbi()];

/** A user's clients on one of the localnet's EVM chains. */
export function userOn(t: TestLocalnet, user: LocalUser, chainName: string) {
  const { chain, definition } = evmClients(t, chainName);
  const transport = http(chain.rpcUrl);
  // Blocks come every second: a receipt is looked for four times a second, not viem's default four seconds.
  const pub = createPublicClient({ chain: definition, transport, pollingInterval: 250 }) as PublicClient;
  const wallet = createWalletClient({ account: user.account, chain: definition, transport });
  return { chain, pub, wallet };
}

type UserClients = ReturnType<typeof userOn>;

interface ContractCall {
  address: Address;
  abi: Abi;
  functionName: string;
  args: readonly unknown[];
}

/** Sends a call as the user; returns its hash without waiting for a block (a held chain mines none). */
export function send(on: UserClients, call: ContractCall): Promise<Hex> {
  return on.wallet.writeContract({ ...call, account: on.wallet.account, chain: on.wallet.chain });
}

/** Sends a call as the user and waits for it to be mined; a revert fails the test with what was tried. */
export async function sendMined(on: UserClients, call: ContractCall): Promise<Hex> {
  const hash = await send(on, call);
  const receipt = await on.pub.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`${call.functionName} ${hash} reverted`);
  return hash;
}

/** What a mined transaction paid in the chain's coin. */
export async function evmFeeOf(t: TestLocalnet, chainName: string, hash: string): Promise<bigint> {
  const { pub } = evmClients(t, chainName);
  const receipt = await pub.getTransactionReceipt({ hash: hash as Hex });
  return receipt.gasUsed * receipt.effectiveGasPrice;
}

/** Stops a chain's blocks (transactions wait in its pool), or mines one a second again. */
export async function setMining(t: TestLocalnet, chainName: string, on: boolean): Promise<void> {
  const { chain } = evmClients(t, chainName);
  await anvilCall(chain.rpcUrl, "evm_setAutomine", [false]);
  await anvilCall(chain.rpcUrl, "evm_setIntervalMining", [on ? 1 : 0]);
}

function tokenOf(t: TestLocalnet, assetId: string): { chainName: string; token: Address; htlc: Address } {
  const [chainName = ""] = assetId.split(":");
  const asset = evmClients(t, chainName).chain.assets.find((a) => a.id === assetId);
  if (asset === undefined || asset.tokenAddress === "native") throw new Error(`${assetId} is not a token`);
  return { chainName, token: asset.tokenAddress as Address, htlc: asset.htlcAddress };
}

/** The user lets `spender` (an HTLC, the configured one by default) take any amount of the asset's token. */
export async function approveToken(
  t: TestLocalnet,
  user: LocalUser,
  assetId: string,
  spender = tokenOf(t, assetId).htlc,
): Promise<void> {
  const { chainName, token } = tokenOf(t, assetId);
  const on = userOn(t, user, chainName);
  await sendMined(on, {
    address: token,
    abi: erc20Abi,
    functionName: "approve",
    args: [spender, maxUint256],
  });
}

/** Another copy of the asset's HTLC, deployed by the user from the project's own artifacts. */
export function deployHtlcCopy(t: TestLocalnet, user: LocalUser, assetId: string): Promise<Address> {
  const { chainName, token } = tokenOf(t, assetId);
  const on = userOn(t, user, chainName);
  return deployHtlc(on.wallet, on.pub, token);
}

/** The order id these terms get on `htlc` (any copy of the contract), 0x-prefixed. */
export function orderIdOn(t: TestLocalnet, htlc: Address, swap: SwapRecord): Hex {
  const { chain } = evmClients(t, swap.chain);
  return evmOrderId({
    chainId: BigInt(chain.chainId),
    secretHash: `0x${swap.secret_hash}`,
    initiator: swap.initiator as Address,
    redeemer: swap.redeemer as Address,
    timelock: BigInt(swap.timelock),
    amount: BigInt(swap.amount),
    htlc,
  });
}

/** The user locks the swap's terms on `htlc` (the configured one by default); returns the hash unmined. */
export function lockOn(
  t: TestLocalnet,
  user: LocalUser,
  swap: SwapRecord,
  htlc = tokenOf(t, swap.asset).htlc,
): Promise<Hex> {
  return send(userOn(t, user, swap.chain), {
    address: htlc,
    abi: HTLC_ABI,
    functionName: "initiate",
    args: [swap.redeemer, BigInt(swap.timelock), BigInt(swap.amount), `0x${swap.secret_hash}`],
  });
}

/** The user refunds an expired order of `htlc`; returns the mined hash. */
export function refundOn(t: TestLocalnet, user: LocalUser, chainName: string, htlc: Address, orderId: Hex) {
  return sendMined(userOn(t, user, chainName), {
    address: htlc,
    abi: HTLC_ABI,
    functionName: "refund",
    args: [orderId],
  });
}

/**
 * The user pays the swap's terms into its configured HTLC with the swap's initiator (the solver, on a
 * destination) named as the order's initiator: the record sits at the swap's id, its refund pays the
 * solver. Returns the mined hash.
 */
export function initiateOnBehalf(t: TestLocalnet, user: LocalUser, swap: SwapRecord): Promise<Hex> {
  return sendMined(userOn(t, user, swap.chain), {
    address: tokenOf(t, swap.asset).htlc,
    abi: HTLC_ABI,
    functionName: "initiateOnBehalf",
    args: [
      swap.initiator,
      swap.redeemer,
      BigInt(swap.timelock),
      BigInt(swap.amount),
      `0x${swap.secret_hash}`,
    ],
  });
}

/** A plain ERC20 transfer of the asset's token to its configured HTLC: no order, just a balance. */
export function transferToHtlc(
  t: TestLocalnet,
  user: LocalUser,
  assetId: string,
  amount: bigint,
): Promise<Hex> {
  const { chainName, token, htlc } = tokenOf(t, assetId);
  return sendMined(userOn(t, user, chainName), {
    address: token,
    abi: erc20Abi,
    functionName: "transfer",
    args: [htlc, amount],
  });
}

/** The asset's token held by its configured HTLC. */
export function htlcHolds(t: TestLocalnet, assetId: string): Promise<bigint> {
  const { chainName, token, htlc } = tokenOf(t, assetId);
  return evmClients(t, chainName).pub.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [htlc],
  });
}

/** The stored order at an id of the asset's configured HTLC (initiator zero: none). */
export async function storedOrder(t: TestLocalnet, assetId: string, orderId: string) {
  const { chainName, htlc } = tokenOf(t, assetId);
  const [initiator, redeemer, initiatedAt, timelock, amount, fulfilledAt] = await evmClients(
    t,
    chainName,
  ).pub.readContract({
    address: htlc,
    abi: htlcAbi,
    functionName: "orders",
    args: [orderId.startsWith("0x") ? (orderId as Hex) : `0x${orderId}`],
  });
  return { initiator, redeemer, initiatedAt, timelock, amount, fulfilledAt };
}

/**
 * Anyone submits a signed initiation of the swap's terms straight to its configured HTLC (the service
 * relays the same call); the tokens come from the signer. Returns the mined hash.
 */
export function initiateWithSignatureOn(
  t: TestLocalnet,
  sender: LocalUser,
  signer: Address,
  swap: SwapRecord,
  signature: Hex,
): Promise<Hex> {
  return sendMined(userOn(t, sender, swap.chain), {
    address: tokenOf(t, swap.asset).htlc,
    abi: HTLC_ABI,
    functionName: "initiateWithSignature",
    args: [
      signer,
      swap.redeemer,
      BigInt(swap.timelock),
      BigInt(swap.amount),
      `0x${swap.secret_hash}`,
      signature,
    ],
  });
}

/**
 * Every balance an EVM-to-EVM swap between two tokens moves: the user's tokens on both sides, the
 * solver's tokens on both sides and its gas on both chains.
 */
export function swapBalances(t: TestLocalnet, user: LocalUser, from: string, to: string) {
  const gasOf = (assetId: string) => `${assetId.split(":")[0]}:eth`;
  return Promise.all([
    user.balance(from),
    user.balance(to),
    solverHolds(t, from),
    solverHolds(t, to),
    solverHolds(t, gasOf(from)),
    solverHolds(t, gasOf(to)),
  ]);
}

type SwapBalances = Awaited<ReturnType<typeof swapBalances>>;

/**
 * The balances `before` a swap becomes once it settled at its fair outcome: the order's amounts across,
 * the solver's gas down by exactly its mined fill and source redeem.
 */
export async function settled(t: TestLocalnet, o: Order, before: SwapBalances): Promise<SwapBalances> {
  const [userFrom, userTo, solverFrom, solverTo, solverSourceGas, solverDestinationGas] = before;
  const [fill] = minedAttempts(t, o, "fill");
  const [redeem] = minedAttempts(t, o, "redeem");
  if (fill?.txHash == null || redeem?.txHash == null) throw new Error(`${o.order_id} is not settled`);
  const sourceAmount = BigInt(o.source_swap.amount);
  const destinationAmount = BigInt(o.destination_swap.amount);
  return [
    userFrom - sourceAmount,
    userTo + destinationAmount,
    solverFrom + sourceAmount,
    solverTo - destinationAmount,
    solverSourceGas - (await evmFeeOf(t, o.source_swap.chain, redeem.txHash)),
    solverDestinationGas - (await evmFeeOf(t, o.destination_swap.chain, fill.txHash)),
  ];
}

/** A contract wallet of the user's (the project's TestSmartWallet): its calls to the HTLC are internal. */
export function deploySmartWallet(t: TestLocalnet, user: LocalUser, chainName: string): Promise<Address> {
  const on = userOn(t, user, chainName);
  return deployTestSmartWallet(on.wallet, on.pub, user.address);
}

/** The user redeems the swap with the secret through their contract wallet; returns the hash unmined. */
export function redeemThrough(
  t: TestLocalnet,
  user: LocalUser,
  smartWallet: Address,
  swap: SwapRecord,
  secret: Hex,
): Promise<Hex> {
  const redeem = encodeFunctionData({
    abi: htlcAbi,
    functionName: "redeem",
    args: [`0x${swap.swap_id}`, secret],
  });
  return send(userOn(t, user, swap.chain), {
    address: smartWallet,
    abi: loadArtifact("TestSmartWallet").abi,
    functionName: "execute",
    args: [tokenOf(t, swap.asset).htlc, 0n, redeem],
  });
}

/**
 * A contract that logs whatever it is called with: three topics (the first 96 bytes of calldata), then
 * the rest as data. Runtime: len = calldatasize - 0x60; calldatacopy(0, 0x60, len);
 * log3(0, len, calldataload(0), calldataload(0x20), calldataload(0x40)).
 */
const LOG_EMITTER_RUNTIME = "60603603806060600037604035602035600035836000a300";
/** Its constructor: returns the 0x18-byte runtime that follows the 0x0b-byte constructor. */
const LOG_EMITTER_INIT: Hex = `0x601880600b6000396000f3${LOG_EMITTER_RUNTIME}`;

/** The user deploys the log emitter on a chain. */
export async function deployLogEmitter(
  t: TestLocalnet,
  user: LocalUser,
  chainName: string,
): Promise<Address> {
  const on = userOn(t, user, chainName);
  const hash = await on.wallet.sendTransaction({
    data: LOG_EMITTER_INIT,
    account: on.wallet.account,
    chain: on.wallet.chain,
  });
  const receipt = await on.pub.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success" || receipt.contractAddress == null) {
    throw new Error(`deploying the log emitter ${hash} failed`);
  }
  return receipt.contractAddress;
}

const REDEEMED_TOPIC = toEventSelector("Redeemed(bytes32,bytes32,bytes)");

/**
 * The emitter logs an event shaped exactly like the HTLC's `Redeemed` of the swap's order id and secret
 * hash, with `secret` as its secret; returns the hash unmined.
 */
export function emitRedeemedDecoy(
  t: TestLocalnet,
  user: LocalUser,
  emitter: Address,
  swap: SwapRecord,
  secret: Hex,
): Promise<Hex> {
  const on = userOn(t, user, swap.chain);
  return on.wallet.sendTransaction({
    to: emitter,
    data: concat([
      REDEEMED_TOPIC,
      `0x${swap.swap_id}`,
      `0x${swap.secret_hash}`,
      encodeAbiParameters([{ type: "bytes" }], [secret]),
    ]),
    account: on.wallet.account,
    chain: on.wallet.chain,
  });
}
