/** Attack class: faults of the process and its nodes (test/attacks/table.ts). */
import { crashInTheMiddleOfAFill } from "./scenarios/crash-restart.js";
import { redeemReorganisedOut } from "./scenarios/reorg.js";
import { solanaFillInterrupted } from "./scenarios/solana-fill-recovery.js";
import { starknetCrashMidFill } from "./scenarios/starknet-crash.js";
import { starknetLyingNode } from "./scenarios/starknet-lying-node.js";
import { starknetNonceTaken } from "./scenarios/starknet-nonce-taken.js";
import { starknetStuckNode } from "./scenarios/starknet-stuck-node.js";
import { suiCrashMidFill } from "./scenarios/sui-crash.js";
import { suiGasCoinTaken } from "./scenarios/sui-gas-coin-taken.js";
import { suiLyingNode } from "./scenarios/sui-lying-node.js";
import { forEachFamily } from "./support/for-each-family.js";

forEachFamily("faults", {
  evm: () => {
    crashInTheMiddleOfAFill("evm");
    redeemReorganisedOut("evm");
  },
  bitcoin: () => {
    crashInTheMiddleOfAFill("bitcoin");
    redeemReorganisedOut("bitcoin");
  },
  solana: () => solanaFillInterrupted(),
  solana_legacy: () => solanaFillInterrupted("legacy"),
  starknet: () => {
    starknetCrashMidFill();
    starknetNonceTaken();
    starknetStuckNode();
    starknetLyingNode();
  },
  sui: () => {
    suiCrashMidFill();
    suiGasCoinTaken();
    suiLyingNode();
  },
});
