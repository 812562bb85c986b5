#!/usr/bin/env node
// `solver-localnet localnet|demo [options]`: the local system's commands on their own, through tsx like
// the product's `solver`, which offers the same two commands whenever this package is installed.
import { register } from "tsx/esm/api";

register();
const { runCli } = await import("htlc-solver/cli.js");
const { localnetCommands } = await import("../src/cli/commands.ts");
process.exitCode = await runCli(process.argv.slice(2), { commands: [...localnetCommands] });
