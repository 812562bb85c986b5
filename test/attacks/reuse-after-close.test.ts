/** Attack class: re-use after close (test/attacks/table.ts). */
import { bitcoinReuseAfterClose } from "./scenarios/bitcoin-reuse.js";
import { evmReuseAfterClose } from "./scenarios/evm-reuse.js";
import { solanaRedeemAndInitiateAgain } from "./scenarios/solana-redeem-reinitiate.js";
import { useAttackNet } from "./support/attack-net.js";
import { forEachFamily } from "./support/for-each-family.js";

const net = useAttackNet();

forEachFamily("reuse-after-close", {
  evm: () => evmReuseAfterClose(net),
  bitcoin: () => bitcoinReuseAfterClose(net),
  solana: () => solanaRedeemAndInitiateAgain(net),
  // A net of its own: the legacy programs are the Solana chain's for the whole of a localnet.
  solana_legacy: () =>
    solanaRedeemAndInitiateAgain(useAttackNet({ solanaProgramVersion: "legacy" }), "legacy"),
});
