import { crypto as btcCrypto, payments, type Network } from "bitcoinjs-lib";
import { ECPairFactory, type ECPairInterface } from "ecpair";
import { bytesToHex, fixedBytes } from "./bytes.js";
import { ecc } from "./ecc.js";

const ECPair = ECPairFactory(ecc);

/**
 * The solver's Bitcoin key. The same x-only key is the HTLC initiator/redeemer key (script path,
 * untweaked) and the internal key of the wallet's key-path P2TR output (BIP-86 tweak, no script tree).
 * The private key stays in a private field and never appears in inspection or JSON.
 */
export class BitcoinKey {
  readonly #pair: ECPairInterface;
  readonly #keyPath: ECPairInterface;
  readonly xOnly: Uint8Array;

  private constructor(pair: ECPairInterface) {
    this.#pair = pair;
    this.xOnly = pair.publicKey.subarray(1, 33);
    this.#keyPath = pair.tweak(btcCrypto.taggedHash("TapTweak", this.xOnly));
  }

  /** From a 32-byte private key in hex (with or without 0x). */
  static fromHex(privateKeyHex: string): BitcoinKey {
    return new BitcoinKey(ECPair.fromPrivateKey(fixedBytes(privateKeyHex, 32, "Bitcoin private key")));
  }

  static random(): BitcoinKey {
    return new BitcoinKey(ECPair.makeRandom());
  }

  get xOnlyHex(): string {
    return bytesToHex(this.xOnly);
  }

  /** BIP-340 signature by the untweaked key, for script-path spends. */
  signSchnorr(hash: Uint8Array): Uint8Array {
    return this.#pair.signSchnorr(hash);
  }

  /** BIP-340 signature by the BIP-86 tweaked key, for key-path spends of the wallet output. */
  signKeyPath(hash: Uint8Array): Uint8Array {
    return this.#keyPath.signSchnorr(hash);
  }

  /** The wallet's P2TR (key path only) output script and address. */
  walletPayment(network: Network): { address: string; output: Uint8Array } {
    const payment = payments.p2tr({ internalPubkey: this.xOnly, network });
    if (payment.address === undefined || payment.output === undefined) {
      throw new Error("could not derive the wallet's P2TR output from its key");
    }
    return { address: payment.address, output: payment.output };
  }

  toJSON(): { xOnly: string } {
    return { xOnly: this.xOnlyHex };
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `BitcoinKey(${this.xOnlyHex})`;
  }
}
