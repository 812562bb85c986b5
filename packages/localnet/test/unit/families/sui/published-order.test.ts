import { bcs } from "@mysten/sui/bcs";
import { toBase64 } from "@mysten/sui/utils";
import { afterEach, describe, expect, it } from "vitest";
import { bareHex, bytesOfHex } from "../../../../src/families/sui/chain/bytes.js";
import { orderIdOf } from "../../../../src/families/sui/chain/index.js";
import { gasPaid, ONE_SUI, startSetup, statusOf, SUI, type Setup } from "./helpers.js";
import { PUBLISHED_ORDER as P } from "./published-order.js";

let setup: Setup | undefined;
afterEach(async () => {
  await setup?.sui.stop();
  setup = undefined;
});

const u64 = (v: bigint) => toBase64(bcs.u64().serialize(v).toBytes());
const address = (a: string) => toBase64(bcs.Address.serialize(a).toBytes());
const bytesArg = (hex: string) =>
  toBase64(
    bcs
      .vector(bcs.u8())
      .serialize(Array.from(bytesOfHex(hex)))
      .toBytes(),
  );
const SUI_LONG = `0x${"0".repeat(63)}2::sui::SUI`;

/** The published layout with the package and registry of choice. */
function expectedKind(packageId: string, registry: string, registryVersion: string) {
  return {
    inputs: [
      { Pure: { bytes: u64(P.amount) } },
      {
        Object: {
          SharedObject: { objectId: registry, initialSharedVersion: registryVersion, mutable: true },
        },
      },
      { Pure: { bytes: address(P.initiator) } },
      { Pure: { bytes: address(P.redeemer) } },
      { Pure: { bytes: bytesArg(P.secretHash) } },
      { Pure: { bytes: toBase64(bcs.u256().serialize(P.timelockMs).toBytes()) } },
      { Pure: { bytes: bytesArg("") } },
      {
        Object: {
          SharedObject: { objectId: `0x${"0".repeat(63)}6`, initialSharedVersion: "1", mutable: false },
        },
      },
    ],
    commands: [
      { SplitCoins: { coin: { GasCoin: true }, amounts: [{ Input: 0 }] } },
      {
        MoveCall: {
          package: packageId,
          module: "AtomicSwap",
          function: "initiate",
          typeArguments: [SUI_LONG],
          arguments: [
            { Input: 1 },
            { Input: 2 },
            { Input: 3 },
            { Input: 4 },
            { Input: 0 },
            { Input: 5 },
            { Input: 6 },
            { Result: 0 },
            { Input: 7 },
          ],
        },
      },
    ],
  };
}

describe("the service's published example order from Sui", () => {
  it("its swap id is the module's order id of its terms", () => {
    const id = orderIdOf({
      secretHash: bytesOfHex(P.secretHash),
      initiator: P.initiator,
      redeemer: P.redeemer,
      timelock: P.timelockMs,
      amount: P.amount,
      registry: P.registry,
    });
    expect(bareHex(id)).toBe(P.swapId);
  });

  it("its ptb_bytes decode to the documented initiate call", () => {
    const kind = bcs.TransactionKind.parse(Uint8Array.from(P.ptbBytes));
    expect(kind.ProgrammableTransaction).toMatchObject(
      expectedKind(P.packageId, P.registry, P.registryInitialSharedVersion),
    );
  });

  it("the same bytes with the local package and registry execute: the order is created under the local registry", async () => {
    const s = (setup = await startSetup());
    const kind = bcs.TransactionKind.parse(Uint8Array.from(P.ptbBytes));
    const programmable = kind.ProgrammableTransaction!;
    const registryInput = programmable.inputs[1]!.Object!.SharedObject!;
    registryInput.objectId = s.registry.registryId;
    registryInput.initialSharedVersion = s.registry.initialSharedVersion.toString();
    programmable.commands[1]!.MoveCall!.package = s.sui.packageId;
    const local = bcs.TransactionKind.serialize(kind).toBytes();
    // Only the package and the registry differ from the published bytes.
    expect(bcs.TransactionKind.parse(local).ProgrammableTransaction).toMatchObject(
      expectedKind(s.sui.packageId, s.registry.registryId, "1"),
    );
    // Ids and versions are fixed-size in BCS: the layout is the published one byte for byte.
    expect(local.length).toBe(P.ptbBytes.length);

    s.sui.mintSui(s.carol.address, 5n * ONE_SUI);
    const before = s.sui.balanceOf(SUI, s.carol.address);
    const response = await s.carol.executeKind(local);
    expect(statusOf(response)).toBe("success");
    expect(s.sui.balanceOf(SUI, s.carol.address)).toBe(before - P.amount - gasPaid(response));
    const localId = orderIdOf({
      secretHash: bytesOfHex(P.secretHash),
      initiator: P.initiator,
      redeemer: P.redeemer,
      timelock: P.timelockMs,
      amount: P.amount,
      registry: s.registry.registryId,
    });
    const initiated = response.events!.find((e) => e.type.endsWith("::AtomicSwap::Initiated"))!;
    expect(initiated.type).toBe(`${s.sui.packageId}::AtomicSwap::Initiated`);
    expect(initiated.parsedJson).toMatchObject({
      order_id: Array.from(localId),
      amount: P.amount.toString(),
    });
    const field = await s.carol.rpc<{ data: { previousTransaction: string } }>("suix_getDynamicFieldObject", [
      s.registry.registryId,
      { type: "vector<u8>", value: Array.from(localId) },
    ]);
    expect(field.data.previousTransaction).toBe(response.digest);
  });
});
