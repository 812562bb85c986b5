/** Attack class: source value that is not there (test/attacks/table.ts). */
import { bitcoinDepositReorganisedAway } from "./scenarios/bitcoin-reorg.js";
import { bitcoinSourceValue } from "./scenarios/bitcoin-source.js";
import { solanaSourceValue } from "./scenarios/solana-source-value.js";
import { forEachFamily } from "./support/for-each-family.js";

forEachFamily("source-value", {
  bitcoin: () => {
    bitcoinSourceValue();
    bitcoinDepositReorganisedAway();
  },
  solana: () => solanaSourceValue(),
});
