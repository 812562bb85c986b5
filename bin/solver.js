#!/usr/bin/env node
// The solver's command line. Two ways to run it:
// - from a clone (tsx installed as a development dependency): the TypeScript in src/ runs in-process
//   through tsx, so `npx solver ...` needs no build step and never runs stale output;
// - from a build (`npm run build`, as the Docker image does, which holds no src/): the compiled
//   JavaScript in dist/ runs on plain Node.
// SOLVER_RUN_FROM=dist picks the build even where tsx is installed (to try an image's way of running).
// `solver localnet` and `solver demo` come from the local system's package (packages/localnet), which
// a clone installs as a workspace; a build without it, such as the Docker image, says so when asked.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";

const LOCAL_PACKAGE = "@htlc-solver/localnet";
const LOCAL_COMMANDS = ["localnet", "demo"];
const require = createRequire(import.meta.url);
const compiledCli = new URL("../dist/src/cli.js", import.meta.url);
const sourceCli = new URL("../src/cli.ts", import.meta.url);

function resolves(specifier) {
  try {
    require.resolve(specifier);
    return true;
  } catch {
    return false;
  }
}

async function loadCli() {
  const fromSource =
    process.env.SOLVER_RUN_FROM !== "dist" && existsSync(sourceCli) && resolves("tsx/package.json");
  if (fromSource) {
    const { register } = await import("tsx/esm/api");
    register();
    const { runCli } = await import(sourceCli.href);
    const { discoverCommands } = await import("../src/cli/discover.ts");
    return { runCli, discoverCommands, fromSource };
  }
  if (!existsSync(compiledCli)) {
    process.stderr.write(
      "solver: no build to run (dist/src/cli.js is missing) and tsx is not installed to run the sources; " +
        "run `npm run build`, or `npm ci` to install the development dependencies\n",
    );
    process.exit(2);
  }
  const { runCli } = await import(compiledCli.href);
  const { discoverCommands } = await import(new URL("../dist/src/cli/discover.js", import.meta.url).href);
  return { runCli, discoverCommands, fromSource };
}

const argv = process.argv.slice(2);
const asked = argv[0] === "help" ? argv[1] : argv[0];
const { runCli, discoverCommands, fromSource } = await loadCli();
const commands = await discoverCommands();
// The local system is TypeScript: it runs only where the sources run.
if (fromSource && resolves(`${LOCAL_PACKAGE}/package.json`)) {
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
