/**
 * The service's published test-network Solana orders (its API quickstart, "From Solana", in gardenfi/docs
 * `api-reference/quickstart.mdx`) and the unsigned initiate transaction the service returned for each
 * (`versioned_tx`), decoded and rebuilt with the project's own code, byte for byte: the legacy native
 * program's initiate, its swap account (bump 255), and the API's swap id.
 */
import { Message, PublicKey, VersionedTransaction, type TransactionInstruction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { base58Encode as bs58 } from "../../../../src/chains/solana/base58.js";
import {
  LEGACY_NATIVE_HTLC_PROGRAM_ID,
  decodeLegacyInitiate,
  legacyNativeInitiateInstruction,
  legacyNativeSwapAddress,
  solanaSwapId,
} from "../../../../src/chains/solana/index.js";

/**
 * The orders' source sides as the API published them, and the `versioned_tx` (hex) the service returned
 * for each: one empty signature slot, then the message. The quickstart showed the first order until
 * gardenfi/docs commit 8101317 and the second from then on.
 */
const ORDERS = [
  {
    orderId: "dbf0f3037b720e3e07316481a07e29262200d185def0bfb8c834ccbe973b9ce3",
    swapId: "1d432a32c6f6ce6f63369c70a11510f3238509eaffaca90ebf5f99f7341b33a7",
    secretHash: "8f4496f0477e05038c0437ac28fc6bc1f7cd2c135d82e38ef9071c59f876c8f7",
    tx:
      "01" +
      "00".repeat(64) +
      "0100020408032aa331a727d64421581d1ec2ea7cdde7ac7bb04a7ab7bb5e7f4ea5992f088df52173853db57069928d3dc78a4248" +
      "d83fa5f2d20c5ce110fe5030ff14ed9f000000000000000000000000000000000000000000000000000000000000000017b7828c" +
      "a6c4f06b51139a60254f81fe1249c8e2b122febf32ca81322b9f1e8ef39c52ce23e7860515cf568e3d148773ea7f1b9628097e64" +
      "f844c22b328364c501030301000258053f7b71994b940e89e4221500000000c04b03000000000044070018cffb963a80cb5bf897" +
      "4e0d64934c614d26340d947ddf3b762a014cac8f4496f0477e05038c0437ac28fc6bc1f7cd2c135d82e38ef9071c59f876c8f7",
  },
  {
    orderId: "ee54521431fd3b7c01f46f2aaec086362d8cf2d6a7d3b31233c66c31bed9e4eb",
    swapId: "4629969e622608f634a4be4116f80be482ef987bccf30ef9900eb3e0f242eb77",
    secretHash: "b8841dc97c588ab9e1b94f62627b97d54f8c1048b28c26749d413032e9d66c4e",
    tx:
      "01" +
      "00".repeat(64) +
      "0100020408032aa331a727d64421581d1ec2ea7cdde7ac7bb04a7ab7bb5e7f4ea5992f08b30c777cae9e6cbeb9830b8b0cd529b6" +
      "e1f3667ae0c1c21071cb64bba2c7763e000000000000000000000000000000000000000000000000000000000000000017b7828c" +
      "a6c4f06b51139a60254f81fe1249c8e2b122febf32ca81322b9f1e8ed3c02412b5458cdb8b14d42d4a61166f85f0f4e4d536c8a9" +
      "f111a4de7e86b77801030301000258053f7b71994b940e89e4221500000000c04b03000000000044070018cffb963a80cb5bf897" +
      "4e0d64934c614d26340d947ddf3b762a014cacb8841dc97c588ab9e1b94f62627b97d54f8c1048b28c26749d413032e9d66c4e",
  },
].map((o) => ({
  ...o,
  initiator: "YH4btvqb4JBWSEJh22MuA231ekpJ5JqbBXQY1apJtKH",
  redeemer: "5aYv3mxzXupjUa6Yyi23Yn3n1kbgGEDfrJ6uBDq6VwQo",
  timelock: 216_000n,
  amount: 354_608_265n,
}));

/**
 * A one-instruction legacy message with its keys in order of first appearance within each class (the
 * payer; writable accounts; read-only accounts, then the program), the layout of the published
 * transaction. @solana/web3.js's own compiler puts read-only program ids first.
 */
function compileInAppearanceOrder(ix: TransactionInstruction, payer: PublicKey, blockhash: string): Message {
  const metas = [{ pubkey: payer, isSigner: true, isWritable: true }, ...ix.keys];
  const ordered = [
    ...metas.filter((m) => m.isSigner),
    ...metas.filter((m) => !m.isSigner && m.isWritable),
    ...metas.filter((m) => !m.isSigner && !m.isWritable),
    { pubkey: ix.programId, isSigner: false, isWritable: false },
  ];
  const accountKeys = ordered
    .map((m) => m.pubkey)
    .filter((key, i, all) => all.findIndex((k) => k.equals(key)) === i);
  const index = (key: PublicKey) => accountKeys.findIndex((k) => k.equals(key));
  return new Message({
    header: {
      numRequiredSignatures: 1,
      numReadonlySignedAccounts: 0,
      numReadonlyUnsignedAccounts:
        accountKeys.length - 1 - ordered.filter((m) => !m.isSigner && m.isWritable).length,
    },
    accountKeys: accountKeys.map((k) => k.toBase58()),
    recentBlockhash: blockhash,
    instructions: [
      {
        programIdIndex: index(ix.programId),
        accounts: ix.keys.map((k) => index(k.pubkey)),
        data: bs58(ix.data),
      },
    ],
  });
}

describe.each(ORDERS)("the published test-network Solana order $orderId", (ORDER) => {
  const PUBLISHED_TX = ORDER.tx;
  const message = VersionedTransaction.deserialize(Buffer.from(PUBLISHED_TX, "hex")).message;
  const [ix] = message.compiledInstructions;
  const keys = message.staticAccountKeys;

  it("was initiated with the legacy native program: one initiate, 88 bytes, whose arguments are the order's", () => {
    expect(message.compiledInstructions).toHaveLength(1);
    expect(keys[ix!.programIdIndex]?.equals(LEGACY_NATIVE_HTLC_PROGRAM_ID)).toBe(true);
    expect(ix!.data.length).toBe(88);
    const args = decodeLegacyInitiate("native", ix!.data);
    expect(args).not.toBeNull();
    expect(args!.swapAmount).toBe(ORDER.amount);
    expect(args!.expiresInSlots).toBe(ORDER.timelock);
    expect(args!.redeemer.toBase58()).toBe(ORDER.redeemer);
    expect(Buffer.from(args!.secretHash).toString("hex")).toBe(ORDER.secretHash);
  });

  it("names the swap account [swap_account, initiator, secret_hash] at bump 255, the initiator and the System program", () => {
    const initiator = new PublicKey(ORDER.initiator);
    const swap = legacyNativeSwapAddress(
      LEGACY_NATIVE_HTLC_PROGRAM_ID,
      initiator,
      Buffer.from(ORDER.secretHash, "hex"),
    );
    expect(swap.bump).toBe(255);
    const accounts = ix!.accountKeyIndexes.map((i) => keys[i]!.toBase58());
    expect(accounts).toEqual([swap.address.toBase58(), ORDER.initiator, "11111111111111111111111111111111"]);
    expect(message.isAccountSigner(ix!.accountKeyIndexes[1]!)).toBe(true);
    expect(message.isAccountWritable(ix!.accountKeyIndexes[0]!)).toBe(true);
    expect(message.isAccountWritable(ix!.accountKeyIndexes[1]!)).toBe(true);
  });

  it("rebuilds from the order's fields to the same transaction, byte for byte", () => {
    const terms = {
      redeemer: new PublicKey(ORDER.redeemer),
      refundee: new PublicKey(ORDER.initiator),
      secretHash: new Uint8Array(Buffer.from(ORDER.secretHash, "hex")),
      swapAmount: ORDER.amount,
      timelock: ORDER.timelock,
    };
    const initiate = legacyNativeInitiateInstruction(LEGACY_NATIVE_HTLC_PROGRAM_ID, terms);
    const rebuilt = compileInAppearanceOrder(initiate, terms.refundee, message.recentBlockhash);
    const unsigned = new VersionedTransaction(rebuilt);
    expect(Buffer.from(unsigned.serialize()).toString("hex")).toBe(PUBLISHED_TX);
  });

  it("has the swap id the API published: sha256(103 ‖ secret hash ‖ initiator)", () => {
    const id = solanaSwapId(103n, Buffer.from(ORDER.secretHash, "hex"), new PublicKey(ORDER.initiator));
    expect(id).toBe(ORDER.swapId);
  });
});
