/**
 * The local Starknet chain: state, a mempool of v3 invokes checked at submission as a sequencer checks
 * them (version, bounds, nonce, fee balance, signature), blocks that include the transactions whose bounds
 * meet the block's gas prices, receipts, finality by depth, and the event log. Block production is driven
 * from outside (`mineBlock`), by the interval in `index.ts` or by a test.
 */
import { AccountModel } from "./account.js";
import { blockHash, blockStatus, type Block, type BlockStatus } from "./blocks.js";
import { CallRevert } from "./call-revert.js";
import { Erc20Model } from "./erc20.js";
import { specError, STARKNET_RPC_CODE } from "./errors.js";
import { EventLog, type LoggedEvent } from "./event-log.js";
import { executeInvoke, type ExecutionEnvironment } from "./executor.js";
import {
  chargedFee,
  coversValidation,
  DEFAULT_GAS_PRICES,
  maxFee,
  pricesWithinBounds,
  type GasPrices,
} from "./fees.js";
import { feltHex } from "./felt.js";
import { GasMeter, type GasUsage } from "./gas.js";
import { invokeHash, QUERY_OFFSET, type InvokeV3 } from "./invoke-txn.js";
import { Mempool } from "./mempool.js";
import { World, type ContractModel, type EmittedEvent } from "./world.js";

/** Past states kept for calls and nonces at older blocks. */
const KEPT_STATES = 256;

export interface IncludedTransaction {
  hash: bigint;
  tx: InvokeV3;
  blockNumber: bigint;
  blockHash: bigint;
  revertReason: string | undefined;
  events: EmittedEvent[];
  usage: GasUsage;
  fee: bigint;
}

export type BlockId =
  "latest" | "pre_confirmed" | "l1_accepted" | { blockNumber: bigint } | { blockHash: bigint };

export interface LocalStarknetChainOptions {
  chainId: bigint;
  feeToken: bigint;
  sequencer: bigint;
  l1AcceptDepth: bigint;
}

export class LocalStarknetChain {
  private world = new World();
  private readonly states = new Map<bigint, World>();
  readonly blocks: Block[] = [];
  readonly mempool = new Mempool();
  readonly events = new EventLog();
  private readonly waiting = new Map<bigint, InvokeV3>();
  private readonly included = new Map<bigint, IncludedTransaction>();
  gasPrices: GasPrices = { ...DEFAULT_GAS_PRICES };

  constructor(readonly options: LocalStarknetChainOptions) {
    this.world.contracts.set(options.feeToken, new Erc20Model("Starknet Token", "STRK", 18));
    this.closeBlock([]);
  }

  get chainId(): bigint {
    return this.options.chainId;
  }

  latest(): Block {
    const block = this.blocks.at(-1);
    if (block === undefined) throw new Error("the chain has no genesis block");
    return block;
  }

  /**
   * Setup without a transaction (genesis-like): changes a copy of the newest state, which becomes the
   * newest block's state; older blocks' states stay as they were.
   */
  setup(change: (world: World) => void): void {
    const next = this.world.clone();
    change(next);
    this.world = next;
    this.states.set(this.latest().number, next);
  }

  /** Places a contract model at an address, outside any transaction. */
  deploy(address: bigint, model: ContractModel): void {
    if (this.world.contracts.has(address))
      throw new Error(`a contract is already deployed at ${feltHex(address)}`);
    this.setup((world) => world.contracts.set(address, model));
  }

  /** The state as of a block (the latest for "latest", "pre_confirmed" and the newest block). */
  stateAt(id: BlockId): World {
    const block = this.resolveBlock(id);
    if (block === undefined) return this.world;
    if (block.number === this.latest().number) return this.world;
    const state = this.states.get(block.number);
    if (state === undefined)
      throw specError(STARKNET_RPC_CODE.BLOCK_NOT_FOUND, `state of block ${block.number} is no longer kept`);
    return state;
  }

  /** The closed block an id names; undefined for "pre_confirmed" (the block being built). */
  resolveBlock(id: BlockId): Block | undefined {
    if (id === "pre_confirmed") return undefined;
    if (id === "latest") return this.latest();
    if (id === "l1_accepted") {
      const number = this.latest().number - this.options.l1AcceptDepth;
      return this.blocks[Number(number < 0n ? 0n : number)];
    }
    const block =
      "blockNumber" in id
        ? this.blocks[Number(id.blockNumber)]
        : this.blocks.find((b) => b.hash === id.blockHash);
    if (block === undefined) throw specError(STARKNET_RPC_CODE.BLOCK_NOT_FOUND);
    return block;
  }

  statusOf(block: bigint): BlockStatus {
    return blockStatus(block, this.latest().number, this.options.l1AcceptDepth);
  }

  contractOrNotFound(world: World, address: bigint): ContractModel {
    const model = world.contracts.get(address);
    if (model === undefined)
      throw specError(STARKNET_RPC_CODE.CONTRACT_NOT_FOUND, `no contract at ${feltHex(address)}`);
    return model;
  }

  nonceAt(id: BlockId, address: bigint): bigint {
    const world = this.stateAt(id);
    this.contractOrNotFound(world, address);
    return world.nonceOf(address);
  }

  /** A read-only call; a failing one is error 40 with the revert reason. */
  call(id: BlockId, to: bigint, selector: bigint, calldata: bigint[]): bigint[] {
    const world = this.stateAt(id).clone();
    this.contractOrNotFound(world, to);
    const frame = {
      caller: 0n,
      blockNumber: this.latest().number + 1n,
      chainId: this.chainId,
      gas: new GasMeter(),
      events: [],
    };
    try {
      return world.call(frame, to, selector, calldata);
    } catch (error) {
      if (!(error instanceof CallRevert)) throw error;
      throw specError(STARKNET_RPC_CODE.CONTRACT_ERROR, { revert_error: error.reason });
    }
  }

  private environment(blockNumber: bigint, prices: GasPrices): ExecutionEnvironment {
    return {
      blockNumber,
      prices,
      chainId: this.chainId,
      feeToken: this.options.feeToken,
      sequencer: this.options.sequencer,
    };
  }

  private accountOf(world: World, sender: bigint): AccountModel {
    const model = world.contracts.get(sender);
    if (!(model instanceof AccountModel))
      throw specError(
        STARKNET_RPC_CODE.VALIDATION_FAILURE,
        `sender ${feltHex(sender)} is not a deployed account`,
      );
    return model;
  }

  /** `__validate__`: the Stark signature over the transaction hash with the account's key. */
  private validate(world: World, tx: InvokeV3, hash: bigint): void {
    if (!this.accountOf(world, tx.senderAddress).verifies(hash, tx.signature))
      throw specError(STARKNET_RPC_CODE.VALIDATION_FAILURE, "invalid transaction signature");
  }

  feeBalance(world: World, owner: bigint): bigint {
    return world.contractAt(this.options.feeToken, Erc20Model).balanceOf(owner);
  }

  /** Accepts a v3 invoke into the mempool, or refuses it with the spec's error (nothing used, nothing charged). */
  submit(tx: InvokeV3): bigint {
    if (tx.version !== 3n)
      throw specError(STARKNET_RPC_CODE.UNSUPPORTED_TX_VERSION, `version ${feltHex(tx.version)}`);
    const hash = invokeHash(tx, this.chainId);
    if (this.waiting.has(hash) || this.included.has(hash)) throw specError(STARKNET_RPC_CODE.DUPLICATE_TX);
    this.accountOf(this.world, tx.senderAddress);
    if (!coversValidation(tx.resourceBounds))
      throw specError(
        STARKNET_RPC_CODE.INSUFFICIENT_RESOURCES_FOR_VALIDATE,
        "the l2 gas or l1 data gas bound is below what validation uses",
      );
    const replacing = this.mempool.admissionOf(tx, this.world.nonceOf(tx.senderAddress));
    const balance = this.feeBalance(this.world, tx.senderAddress);
    const most = maxFee(tx.resourceBounds, tx.tip);
    if (balance < most)
      throw specError(
        STARKNET_RPC_CODE.INSUFFICIENT_ACCOUNT_BALANCE,
        `balance ${balance} FRI < maximal fee ${most} FRI`,
      );
    this.validate(this.world, tx, hash);
    if (replacing !== undefined) this.waiting.delete(replacing.hash);
    this.mempool.add({ hash, tx }, replacing);
    this.waiting.set(hash, tx);
    return hash;
  }

  /** What the transactions would use and pay, run in order on the latest state at the current prices. */
  estimate(txs: InvokeV3[], skipValidate: boolean) {
    let world = this.world;
    const env = this.environment(this.latest().number + 1n, this.gasPrices);
    return txs.map((tx, index) => {
      const hash = invokeHash(tx, this.chainId);
      const account = this.accountOf(world, tx.senderAddress);
      const fail = (reason: string) =>
        specError(STARKNET_RPC_CODE.TRANSACTION_EXECUTION_ERROR, {
          transaction_index: index,
          execution_error: reason,
        });
      if (!skipValidate && !account.verifies(hash, tx.signature)) throw fail("invalid transaction signature");
      if (tx.nonce < world.nonceOf(tx.senderAddress))
        throw fail(
          `Invalid transaction nonce. Account nonce: ${world.nonceOf(tx.senderAddress)}; got: ${tx.nonce}.`,
        );
      // Estimation runs without fee bounds (the real node runs it with the fee charge skipped).
      const unbounded: InvokeV3 = {
        ...tx,
        version: tx.version % QUERY_OFFSET,
        resourceBounds: {
          l1Gas: { maxAmount: 0n, maxPricePerUnit: 0n },
          l2Gas: { maxAmount: 2n ** 64n - 1n, maxPricePerUnit: 0n },
          l1DataGas: { maxAmount: 2n ** 64n - 1n, maxPricePerUnit: 0n },
        },
        tip: 0n,
      };
      const funded = world.clone();
      funded.contractAt(this.options.feeToken, Erc20Model).mint(tx.senderAddress, 2n ** 200n);
      const outcome = executeInvoke(funded, unbounded, env);
      if (outcome.revertReason !== undefined) throw fail(outcome.revertReason);
      world = outcome.world;
      const { usage } = outcome;
      const prices = this.gasPrices;
      return {
        l1_gas_consumed: feltHex(usage.l1Gas),
        l1_gas_price: feltHex(prices.l1),
        l2_gas_consumed: feltHex(usage.l2Gas),
        l2_gas_price: feltHex(prices.l2),
        l1_data_gas_consumed: feltHex(usage.l1DataGas),
        l1_data_gas_price: feltHex(prices.l1Data),
        overall_fee: feltHex(chargedFee(usage, prices, 0n)),
        unit: "FRI",
      };
    });
  }

  waitingTransaction(hash: bigint): InvokeV3 | undefined {
    return this.waiting.get(hash);
  }

  includedTransaction(hash: bigint): IncludedTransaction | undefined {
    return this.included.get(hash);
  }

  /** Closes the next block at the current gas prices with every waiting transaction that can go in. */
  mineBlock(): Block {
    const number = this.latest().number + 1n;
    const prices = { ...this.gasPrices };
    const env = this.environment(number, prices);
    const done: { hash: bigint; outcome: ReturnType<typeof executeInvoke>; tx: InvokeV3 }[] = [];
    for (const sender of this.mempool.senders()) {
      for (let head = this.mempool.head(sender); head !== undefined; head = this.mempool.head(sender)) {
        if (head.tx.nonce !== this.world.nonceOf(sender) || !pricesWithinBounds(head.tx, prices)) break;
        if (this.feeBalance(this.world, sender) < maxFee(head.tx.resourceBounds, head.tx.tip)) {
          // The sender spent its fee balance meanwhile: a sequencer drops what it can no longer charge.
          for (const dropped of this.mempool.dropAll(sender)) this.waiting.delete(dropped.hash);
          break;
        }
        const outcome = executeInvoke(this.world, head.tx, env);
        this.world = outcome.world;
        this.mempool.shift(sender);
        this.waiting.delete(head.hash);
        done.push({ hash: head.hash, outcome, tx: head.tx });
      }
    }
    const block = this.closeBlock(
      done.map((d) => d.hash),
      prices,
    );
    const logged: LoggedEvent[] = [];
    for (const { hash, outcome, tx } of done) {
      this.included.set(hash, {
        hash,
        tx,
        blockNumber: block.number,
        blockHash: block.hash,
        revertReason: outcome.revertReason,
        events: outcome.events,
        usage: outcome.usage,
        fee: outcome.fee,
      });
      for (const event of outcome.events)
        logged.push({ ...event, blockNumber: block.number, blockHash: block.hash, transactionHash: hash });
    }
    this.events.append(logged);
    return block;
  }

  private closeBlock(transactionHashes: bigint[], prices: GasPrices = this.gasPrices): Block {
    const parent = this.blocks.at(-1);
    const number = parent === undefined ? 0n : parent.number + 1n;
    const now = Math.floor(Date.now() / 1000);
    const timestamp = parent === undefined ? now : Math.max(now, parent.timestamp);
    const parentHash = parent?.hash ?? 0n;
    const block: Block = {
      number,
      hash: blockHash(number, parentHash, timestamp, transactionHashes),
      parentHash,
      timestamp,
      prices: { ...prices },
      transactionHashes,
    };
    this.blocks.push(block);
    this.states.set(number, this.world);
    this.states.delete(number - BigInt(KEPT_STATES));
    return block;
  }
}
