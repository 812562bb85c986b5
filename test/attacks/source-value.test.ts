/** Attack class: source value that is not there (test/attacks/table.ts). */
import { bitcoinDepositReorganisedAway } from "./scenarios/bitcoin-reorg.js";
import { bitcoinSourceValue } from "./scenarios/bitcoin-source.js";
import { evmSourceValue } from "./scenarios/evm-source-value.js";
import { solanaSourceValue } from "./scenarios/solana-source-value.js";
import { starknetSourceValue } from "./scenarios/starknet-source-value.js";
import { suiSourceValue } from "./scenarios/sui-source-value.js";
import { forEachFamily } from "./support/for-each-family.js";

forEachFamily("source-value", {
  evm: () => evmSourceValue(),
  bitcoin: () => {
    bitcoinSourceValue();
    bitcoinDepositReorganisedAway();
  },
  solana: () => solanaSourceValue(),
  solana_legacy: () => solanaSourceValue("legacy"),
  starknet: () => starknetSourceValue(),
  sui: () => suiSourceValue(),
});
