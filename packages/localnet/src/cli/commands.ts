/** The commands the local system adds to the solver CLI: `solver localnet` and `solver demo`. */
import type { CliCommand } from "htlc-solver/cli/command.js";
import { command as demo } from "./commands/demo.js";
import { command as localnet } from "./commands/localnet.js";

export const localnetCommands: readonly CliCommand[] = [demo, localnet];
