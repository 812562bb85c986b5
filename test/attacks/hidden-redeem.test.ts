/** Attack class: hiding the redeem (test/attacks/table.ts). */
import { bitcoinHiddenRedeem } from "./scenarios/bitcoin-hidden-redeem.js";
import { evmHiddenRedeem } from "./scenarios/evm-hidden-redeem.js";
import { solanaHistorySpam } from "./scenarios/solana-history-spam.js";
import { starknetHiddenRedeem } from "./scenarios/starknet-hidden-redeem.js";
import { suiHiddenRedeem } from "./scenarios/sui-hidden-redeem.js";
import { useAttackNet } from "./support/attack-net.js";
import { forEachFamily } from "./support/for-each-family.js";

const net = useAttackNet();

forEachFamily("hidden-redeem", {
  evm: () => evmHiddenRedeem(net),
  bitcoin: () => bitcoinHiddenRedeem(net),
  solana: () => solanaHistorySpam(net),
  // A net of its own: the legacy programs are the Solana chain's for the whole of a localnet.
  solana_legacy: () => solanaHistorySpam(useAttackNet({ solanaProgramVersion: "legacy" })),
  starknet: () => starknetHiddenRedeem(net),
  sui: () => suiHiddenRedeem(net),
});
