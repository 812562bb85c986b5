/**
 * What one block may hold, kept for each block the index follows so that an address watched later is
 * searched only in the blocks that may pay it or spend its outputs: a Bloom filter over the block's output
 * scripts and spent outpoints. It may answer "maybe" for an item the block lacks, never "no" for one it
 * holds, so a block it rules out holds nothing the new address needs.
 */

/**
 * 20 bits and 14 probes per item: about 1 in 15,000 answers for an absent item is a false "maybe", so a
 * batch of 500 new addresses still rules out about 97 % of blocks (a mainnet block: about 45 kB).
 */
const BITS_PER_ITEM = 20;
const PROBES = 14;
/**
 * A small block's filter is still this big: a batch probes it with hundreds of keys, and a few bits would
 * answer "maybe" to too many of them (1,008 filters of this size are 256 kB).
 */
const MIN_BYTES = 256;

/** Two independent 32-bit hashes of an item, computed once and probed against many filters. */
export interface FilterKey {
  readonly first: number;
  readonly step: number;
}

export function filterKey(item: string): FilterKey {
  return { first: hash32(item, 0x811c9dc5, 0x01000193), step: hash32(item, 0x9747b28c, 0x5bd1e995) };
}

export class BlockFilter {
  readonly #bits: Uint8Array;
  readonly #size: number;

  private constructor(bits: Uint8Array) {
    this.#bits = bits;
    this.#size = bits.length * 8;
  }

  static of(items: readonly string[]): BlockFilter {
    const filter = new BlockFilter(
      new Uint8Array(Math.max(MIN_BYTES, Math.ceil((items.length * BITS_PER_ITEM) / 8))),
    );
    for (const item of items) filter.#add(filterKey(item));
    return filter;
  }

  mayHold(key: FilterKey): boolean {
    let bit = key.first % this.#size;
    let step = key.step % this.#size;
    for (let probe = 1; probe <= PROBES; probe++) {
      if ((this.#bits[bit >>> 3]! & (1 << (bit & 7))) === 0) return false;
      [bit, step] = nextProbe(bit, step, probe, this.#size);
    }
    return true;
  }

  #add(key: FilterKey): void {
    let bit = key.first % this.#size;
    let step = key.step % this.#size;
    for (let probe = 1; probe <= PROBES; probe++) {
      this.#bits[bit >>> 3]! |= 1 << (bit & 7);
      [bit, step] = nextProbe(bit, step, probe, this.#size);
    }
  }
}

/**
 * Enhanced double hashing (Dillinger and Manolios): the step grows by the probe number, so two keys that
 * share their first bit and step still part after it; every value stays below the filter's size.
 */
function nextProbe(bit: number, step: number, probe: number, size: number): [number, number] {
  return [(bit + step) % size, (step + probe) % size];
}

/**
 * FNV-1a-style over the item's code units (hex and ':' here), then murmur3's finaliser so every input bit
 * reaches every output bit; two seeds and multipliers give the two hashes.
 */
function hash32(item: string, seed: number, multiplier: number): number {
  let hash = seed;
  for (let i = 0; i < item.length; i++) hash = Math.imul(hash ^ item.charCodeAt(i), multiplier);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}
