/**
 * The one place that wires the secp256k1 backend into bitcoinjs-lib, so every module that builds
 * Taproot outputs can rely on it being initialised.
 */
import { initEccLib } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";

initEccLib(ecc);

export { ecc };
