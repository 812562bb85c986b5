/** Attack class: re-use after close (test/attacks/table.ts). */
import { describe } from "vitest";
import { bitcoinReuseAfterClose } from "./scenarios/bitcoin-reuse.js";
import { evmReuseAfterClose } from "./scenarios/evm-reuse.js";
import { solanaRedeemAndInitiateAgain } from "./scenarios/solana-redeem-reinitiate.js";
import { starknetReuseAfterClose } from "./scenarios/starknet-reuse.js";
import { suiReuseAfterClose } from "./scenarios/sui-reuse.js";
import { useAttackNet } from "./support/attack-net.js";
import { forEachFamily } from "./support/for-each-family.js";
import { deeperStarknetSources } from "./support/starknet-moves-a.js";

const net = useAttackNet();

forEachFamily("reuse-after-close", {
  evm: () => evmReuseAfterClose(net),
  bitcoin: () => bitcoinReuseAfterClose(net),
  solana: () => solanaRedeemAndInitiateAgain(net),
  // A net of its own: the legacy programs are the Solana chain's for the whole of a localnet.
  solana_legacy: () =>
    solanaRedeemAndInitiateAgain(useAttackNet({ solanaProgramVersion: "legacy" }), "legacy"),
  // Nets of their own: Starknet sources held short of the solver's depth, and the HTLC a localnet's
  // Starknet swaps use is one layout's for the whole of it.
  starknet: () => {
    describe("deployed HTLC", () => starknetReuseAfterClose(useAttackNet({}, deeperStarknetSources)));
    describe("audited HTLC", () =>
      starknetReuseAfterClose(
        useAttackNet({ starknetOrderIdLayout: "audited" }, deeperStarknetSources),
        "audited",
      ));
  },
  sui: () => suiReuseAfterClose(net),
});
