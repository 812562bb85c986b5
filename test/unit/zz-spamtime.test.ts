import { it } from "vitest";
import { Keypair } from "@solana/web3.js";
import { startLocalSolana } from "/work/main/src/localnet/solana/index.js";
import { spamAddress } from "/work/main/test/attacks/support/solana-moves.js";
it("spam speed", async () => {
  const local = await startLocalSolana({ slotMs: 400 });
  const payer = Keypair.generate();
  local.fund(payer.publicKey, 10n ** 12n);
  const target = Keypair.generate().publicKey;
  const fakeT = { net: { solana: { local } } } as any;
  const fakeUser = { solana: { keypair: payer } } as any;
  const t0 = performance.now();
  spamAddress(fakeT, fakeUser, target, 1000);
  console.log("1000 spam ms", (performance.now() - t0).toFixed(0));
  await local.stop();
}, 120000);
