#!/usr/bin/env node
// Runs the TypeScript CLI in-process through tsx, so `npx solver ...` works without a build step.
// `solver localnet` and `solver demo` come from the local system's package (packages/localnet), which
// a clone installs as a workspace; a build without it, such as the Docker image, says so when asked.
import { createRequire } from "node:module";
import { register } from "tsx/esm/api";

const LOCAL_PACKAGE = "@htlc-solver/localnet";
const LOCAL_COMMANDS = ["localnet", "demo"];

function localPackageInstalled() {
  try {
    createRequire(import.meta.url).resolve(`${LOCAL_PACKAGE}/package.json`);
    return true;
  } catch {
    return false;
  }
}

register();
const argv = process.argv.slice(2);
const asked = argv[0] === "help" ? argv[1] : argv[0];
const { runCli } = await import("../src/cli.ts");
const { discoverCommands } = await import("../src/cli/discover.ts");
const commands = await discoverCommands();
if (localPackageInstalled()) {
  const { localnetCommands } = await import(`${LOCAL_PACKAGE}/cli/commands.js`);
  commands.push(...localnetCommands);
  commands.sort((a, b) => a.name.localeCompare(b.name));
} else if (LOCAL_COMMANDS.includes(asked)) {
  process.stderr.write(
    `solver ${asked}: the local system (${LOCAL_PACKAGE}) is not installed in this build; ` +
      "it comes with a clone of the repository (npm ci at its root), not with the solver's image\n",
  );
  process.exit(2);
}
process.exitCode = await runCli(argv, { commands });
