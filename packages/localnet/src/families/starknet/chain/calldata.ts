/** Reading Cairo-serialised calldata (felts, u32/u128, u256 as [low, high], Array<T> as [len, ...items]). */
import { CallRevert } from "./call-revert.js";
import { u256FromParts } from "./felt.js";

const U32_LIMIT = 2n ** 32n;
const U128_LIMIT = 2n ** 128n;

export class CalldataReader {
  private position = 0;
  private param = 0;

  constructor(private readonly values: readonly bigint[]) {}

  private take(): bigint {
    const value = this.values[this.position];
    if (value === undefined) throw this.deserializeFailure();
    this.position += 1;
    return value;
  }

  private deserializeFailure(): CallRevert {
    return new CallRevert(`Failed to deserialize param #${this.param}`);
  }

  private bounded(limit: bigint): bigint {
    const value = this.take();
    if (value >= limit) throw this.deserializeFailure();
    return value;
  }

  /** Starts the next parameter (numbered from 1, as Cairo's deserialisation errors count them). */
  private next(): void {
    this.param += 1;
  }

  felt(): bigint {
    this.next();
    return this.take();
  }

  u32(): bigint {
    this.next();
    return this.bounded(U32_LIMIT);
  }

  u128(): bigint {
    this.next();
    return this.bounded(U128_LIMIT);
  }

  u256(): bigint {
    this.next();
    const low = this.bounded(U128_LIMIT);
    const high = this.bounded(U128_LIMIT);
    return u256FromParts(low, high);
  }

  /** `[u32; N]`: N words, no length. */
  u32Fixed(count: number): bigint[] {
    this.next();
    return Array.from({ length: count }, () => this.bounded(U32_LIMIT));
  }

  u32Array(): bigint[] {
    this.next();
    const length = this.take();
    if (length > BigInt(this.values.length)) throw this.deserializeFailure();
    return Array.from({ length: Number(length) }, () => this.bounded(U32_LIMIT));
  }

  feltArray(): bigint[] {
    this.next();
    const length = this.take();
    if (length > BigInt(this.values.length)) throw this.deserializeFailure();
    return Array.from({ length: Number(length) }, () => this.take());
  }

  /** Cairo refuses calldata longer than the entry point's parameters. */
  end(): void {
    if (this.position !== this.values.length) throw new CallRevert("Input too long for arguments");
  }
}
