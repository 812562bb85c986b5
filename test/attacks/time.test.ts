/** Attack class: time (test/attacks/table.ts). */
import { bitcoinStuckFill } from "./scenarios/bitcoin-stuck-fill.js";
import { evmStuckFill } from "./scenarios/evm-stuck-fill.js";
import { solanaLateSecret } from "./scenarios/solana-late-secret.js";
import { starknetTime } from "./scenarios/starknet-time.js";
import { suiTime } from "./scenarios/sui-time.js";
import { forEachFamily } from "./support/for-each-family.js";

forEachFamily("time", {
  evm: () => evmStuckFill(),
  bitcoin: () => bitcoinStuckFill(),
  solana: () => solanaLateSecret(),
  solana_legacy: () => solanaLateSecret("legacy"),
  starknet: () => starknetTime(),
  sui: () => suiTime(),
});
