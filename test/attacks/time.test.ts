/** Attack class: time (test/attacks/table.ts). */
import { evmStuckFill } from "./scenarios/evm-stuck-fill.js";
import { solanaLateSecret } from "./scenarios/solana-late-secret.js";
import { forEachFamily } from "./support/for-each-family.js";

forEachFamily("time", {
  evm: () => evmStuckFill(),
  solana: () => solanaLateSecret(),
});
