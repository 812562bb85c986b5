/** `solver version` (also `solver --version`): which build runs. */
import { toJson } from "../../ops/json.js";
import { buildInfo, formatBuildInfo } from "../build-info.js";
import { EXIT_OK, UsageError, type CliCommand } from "../command.js";

const HELP = `Usage: solver version [--json]
       solver --version

Prints the package's name and version and the git commit of this build: read from the checkout's .git
when there is one, else from the BUILD_COMMIT environment variable, else from a BUILD_COMMIT file at the
package's root (an image without .git sets one of them at build time). When none of them tells it, the
commit is printed as "unknown" and --json gives "commit": null.

Options:
      --json          Print JSON: name, version, commit, commitSource (git, env, file or none)
  -h, --help          Show this help`;

export const command: CliCommand = {
  name: "version",
  summary: "Print the solver's version and git commit",
  help: HELP,
  options: { json: { type: "boolean" } },
  run: async ({ values, positionals, io }) => {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const info = buildInfo(io.env);
    io.stdout(values.json === true ? toJson(info, 2) : formatBuildInfo(info));
    return EXIT_OK;
  },
};
