/**
 * The modelled Move functions' signatures as `sui_getNormalizedMoveFunction` answers them, so that a client
 * (the SDK's resolver among them) learns which object arguments are taken by mutable reference, by
 * reference or by value, and the types of the pure ones.
 */
import type { SuiMoveNormalizedFunction, SuiMoveNormalizedType } from "@mysten/sui/client";

const struct = (
  address: string,
  module: string,
  name: string,
  typeArguments: SuiMoveNormalizedType[] = [],
) => ({
  Struct: { address, module, name, typeArguments },
});
const T0: SuiMoveNormalizedType = { TypeParameter: 0 };
const BYTES: SuiMoveNormalizedType = { Vector: "U8" };
const TX_CONTEXT: SuiMoveNormalizedType = { MutableReference: struct("0x2", "tx_context", "TxContext") };
const CLOCK: SuiMoveNormalizedType = { Reference: struct("0x2", "clock", "Clock") };

function publicFunction(
  parameters: SuiMoveNormalizedType[],
  typeParameters: number,
  returns: SuiMoveNormalizedType[] = [],
): SuiMoveNormalizedFunction {
  return {
    visibility: "Public",
    isEntry: false,
    typeParameters: Array.from({ length: typeParameters }, () => ({ abilities: [] })),
    parameters,
    return: returns,
  };
}

export function atomicSwapSignatures(packageId: string): Record<string, SuiMoveNormalizedFunction> {
  const registry: SuiMoveNormalizedType = {
    MutableReference: struct(packageId, "AtomicSwap", "OrdersRegistry", [T0]),
  };
  return {
    create_orders_registry: publicFunction([TX_CONTEXT], 1, [struct("0x2", "object", "ID")]),
    initiate: publicFunction(
      [
        registry,
        "Address",
        "Address",
        BYTES,
        "U64",
        "U256",
        BYTES,
        struct("0x2", "coin", "Coin", [T0]),
        CLOCK,
        TX_CONTEXT,
      ],
      1,
    ),
    refund: publicFunction([registry, BYTES, CLOCK, TX_CONTEXT], 1),
    redeem: publicFunction([registry, BYTES, BYTES, TX_CONTEXT], 1),
    instant_refund: publicFunction([registry, BYTES, TX_CONTEXT], 1),
  };
}

export function lookalikeSignatures(): Record<string, SuiMoveNormalizedFunction> {
  return { emit_redeemed: publicFunction([BYTES, BYTES, BYTES], 0) };
}
