/** Attack class: price, inventory and cost (test/attacks/table.ts). */
import { bitcoinFillBurst } from "./scenarios/bitcoin-destination.js";
import { evmExposureBurst } from "./scenarios/evm-exposure.js";
import { evmInventoryBurst } from "./scenarios/evm-orders.js";
import { solanaInventoryBurst } from "./scenarios/solana-inventory-burst.js";
import { starknetInventoryBurst } from "./scenarios/starknet-inventory-burst.js";
import { suiInventoryBurst } from "./scenarios/sui-inventory-burst.js";
import { forEachFamily } from "./support/for-each-family.js";

forEachFamily("price-inventory", {
  evm: () => {
    evmInventoryBurst();
    evmExposureBurst();
  },
  bitcoin: () => bitcoinFillBurst(),
  solana: () => solanaInventoryBurst(),
  solana_legacy: () => solanaInventoryBurst("legacy"),
  starknet: () => starknetInventoryBurst(),
  sui: () => suiInventoryBurst(),
});
