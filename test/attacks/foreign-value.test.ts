/** Attack class: foreign value at an HTLC address or id (test/attacks/table.ts). */
import { bitcoinDestinationForeignValue } from "./scenarios/bitcoin-destination.js";
import { bitcoinSourceForeignOutput } from "./scenarios/bitcoin-source.js";
import { evmForeignValue } from "./scenarios/evm-foreign-value.js";
import { solanaForeignValue } from "./scenarios/solana-foreign-value.js";
import { starknetForeignValue } from "./scenarios/starknet-foreign-value.js";
import { suiForeignValue } from "./scenarios/sui-foreign-value.js";
import { forEachFamily } from "./support/for-each-family.js";

forEachFamily("foreign-value", {
  evm: () => evmForeignValue(),
  bitcoin: () => {
    bitcoinDestinationForeignValue();
    bitcoinSourceForeignOutput();
  },
  solana: () => solanaForeignValue(),
  solana_legacy: () => solanaForeignValue("legacy"),
  starknet: () => starknetForeignValue(),
  sui: () => suiForeignValue(),
});
