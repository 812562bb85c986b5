/** `solver keys new`: a new private key for one chain family, written to a new key file. */
import { chmodSync, writeFileSync } from "node:fs";
import { CHAIN_FAMILIES, familyOf, type ChainFamily } from "../../chains/registry.js";
import { toJson } from "../../ops/json.js";
import { EXIT_OK, UsageError, type CliCommand, type OptionValues } from "../command.js";

const FAMILY_NAMES = CHAIN_FAMILIES.map((family) => family.name);

const HELP = `Usage: solver keys new --family <${FAMILY_NAMES.join("|")}> --out FILE [--json]

Makes a new random private key for the family's chains and writes it to FILE as a key file
({"<family>": "<key>"}, the form SOLVER_KEY_FILE and solver.keyFile read), mode 600. FILE must not exist:
an existing key is never overwritten. Prints the new key's public side only (EVM: the address; Bitcoin:
the x-only key and its wallet address on each network; Solana: the public key), never the key.
To use keys of several families from one file, merge the entries into one JSON object, keeping mode 600.

Options:
      --family NAME   ${FAMILY_NAMES.join(", ")}
  -o, --out FILE      The new key file
      --json          Print JSON for machines
  -h, --help          Show this help`;

function familyOption(values: OptionValues): ChainFamily {
  const given = values.family;
  const found = FAMILY_NAMES.find((name) => name === given);
  if (found === undefined)
    throw new UsageError(
      `--family must be one of ${FAMILY_NAMES.join(", ")}${typeof given === "string" ? `, not "${given}"` : ""}`,
    );
  return found;
}

/** Creates the file only if it does not exist (`wx`), readable by its owner only whatever the umask allows. */
function writeNewKeyFile(path: string, family: ChainFamily, key: string): void {
  try {
    writeFileSync(path, `${JSON.stringify({ [family]: key })}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      throw new Error(`${path} already exists; keys new never overwrites a file (it may hold a key)`);
    throw error;
  }
  chmodSync(path, 0o600);
}

export const command: CliCommand = {
  name: "keys",
  summary: "Make a new key for a chain family in a key file (mode 600)",
  help: HELP,
  options: { family: { type: "string" }, out: { type: "string", short: "o" }, json: { type: "boolean" } },
  run: async ({ values, positionals, io }) => {
    const [action, ...extra] = positionals;
    if (action !== "new")
      throw new UsageError(action === undefined ? "missing action: new" : `unknown action "${action}"`);
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const family = familyOption(values);
    const out = values.out;
    if (typeof out !== "string" || out === "") throw new UsageError("keys new needs --out FILE");
    const module = familyOf(family);
    const key = module.newKey();
    writeNewKeyFile(out, family, key);
    const account = module.publicAccount(key);
    if (values.json === true) io.stdout(toJson({ family, file: out, account }, 2));
    else
      io.stdout(
        [
          `new ${family} key written to ${out} (mode 600)`,
          ...Object.entries(account).map(([k, v]) => `  ${k}: ${v}`),
        ].join("\n"),
      );
    return EXIT_OK;
  },
};
