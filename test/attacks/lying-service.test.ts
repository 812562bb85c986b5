/** Attack class: the service lies (test/attacks/table.ts). */
import { bitcoinServiceLies } from "./scenarios/bitcoin-lying-service.js";
import { evmAmountsRestatedAfterFreeze } from "./scenarios/evm-frozen-terms-price.js";
import { evmLyingFields } from "./scenarios/evm-lying-service.js";
import { evmServiceLies } from "./scenarios/evm-orders.js";
import { solanaLyingFields } from "./scenarios/solana-lying-service.js";
import { starknetLyingService } from "./scenarios/starknet-lying-service.js";
import { suiLyingService } from "./scenarios/sui-lying-service.js";
import { forEachFamily } from "./support/for-each-family.js";

forEachFamily("lying-service", {
  evm: () => {
    evmLyingFields();
    evmServiceLies();
    evmAmountsRestatedAfterFreeze();
  },
  bitcoin: () => bitcoinServiceLies(),
  solana: () => solanaLyingFields(),
  solana_legacy: () => solanaLyingFields("legacy"),
  starknet: () => starknetLyingService(),
  sui: () => suiLyingService(),
});
