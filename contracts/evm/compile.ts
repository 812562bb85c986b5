/**
 * Compiles the project's Solidity sources with solc-js and writes one `{ abi, bytecode }` JSON per
 * deployable contract to contracts/evm/out. A stamp of the inputs makes unchanged rebuilds a no-op.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

const CONTRACTS_DIR = dirname(fileURLToPath(import.meta.url));
export const OUT_DIR = join(CONTRACTS_DIR, "out");
const STAMP_FILE = join(OUT_DIR, ".build-stamp.json");

const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  // OpenZeppelin 5 needs mcopy (Cancun); every chain the solver targets supports it.
  evmVersion: "cancun",
  // Runtime code too: the localnet places contracts at fixed addresses by code, and the solver checks
  // the code an EIP-7702 delegation points at.
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
} as const;

interface SolcCompiler {
  compile(input: string, callbacks: { import: (path: string) => ImportResult }): string;
}

type ImportResult = { contents: string } | { error: string };

interface SolcDiagnostic {
  severity: "error" | "warning" | "info";
  formattedMessage: string;
}

interface SolcOutput {
  errors?: SolcDiagnostic[];
  contracts?: Record<
    string,
    Record<
      string,
      { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }
    >
  >;
}

export interface BuiltContract {
  name: string;
  /** Size of the creation bytecode in bytes. */
  size: number;
}

export interface BuildResult {
  contracts: BuiltContract[];
  /** True when the stamp matched and nothing was compiled. */
  upToDate: boolean;
  warnings: string[];
}

interface Stamp {
  hash: string;
  contracts: BuiltContract[];
}

export class ContractCompileError extends Error {
  constructor(messages: string[]) {
    super(`solc reported ${messages.length} error(s):\n${messages.join("\n")}`);
    this.name = "ContractCompileError";
  }
}

/** Compiles when the sources, compiler or settings changed since the last build; `force` always does. */
export function buildContracts(options: { force?: boolean } = {}): BuildResult {
  const sources = readSources();
  const hash = inputHash(sources);
  const stamp = readStamp();
  if (!options.force && stamp?.hash === hash && artifactsPresent(stamp.contracts)) {
    return { contracts: stamp.contracts, upToDate: true, warnings: [] };
  }

  // Loading solc-js costs most of a second, so only a real build does it.
  const solc = require("solc") as SolcCompiler;
  const input = { language: "Solidity", sources: toSolcSources(sources), settings: SETTINGS };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as SolcOutput;
  const diagnostics = output.errors ?? [];
  const errors = diagnostics.filter((d) => d.severity === "error").map((d) => d.formattedMessage);
  if (errors.length > 0) throw new ContractCompileError(errors);

  const contracts = writeArtifacts(output, new Set(sources.keys()));
  writeAtomically(STAMP_FILE, JSON.stringify({ hash, contracts } satisfies Stamp, null, 2));
  const warnings = diagnostics.filter((d) => d.severity === "warning").map((d) => d.formattedMessage);
  return { contracts, upToDate: false, warnings };
}

/** Our own .sol files keyed by their path relative to contracts/evm (the solc source unit name). */
function readSources(): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && path !== OUT_DIR) walk(path);
      else if (entry.isFile() && entry.name.endsWith(".sol")) {
        sources.set(relative(CONTRACTS_DIR, path).split(sep).join("/"), readFileSync(path, "utf8"));
      }
    }
  };
  walk(CONTRACTS_DIR);
  return new Map([...sources.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

function inputHash(sources: Map<string, string>): string {
  const hash = createHash("sha256");
  const solcVersion = packageVersion("solc");
  const ozVersion = packageVersion("@openzeppelin/contracts");
  hash.update(JSON.stringify({ solcVersion, ozVersion, settings: SETTINGS }));
  for (const [name, content] of sources) hash.update(`\0${name}\0${content}`);
  return hash.digest("hex");
}

function packageVersion(name: string): string {
  return (require(`${name}/package.json`) as { version: string }).version;
}

function toSolcSources(sources: Map<string, string>): Record<string, { content: string }> {
  return Object.fromEntries([...sources].map(([name, content]) => [name, { content }]));
}

/** Resolves library imports (OpenZeppelin) from node_modules. */
function findImport(path: string): ImportResult {
  try {
    return { contents: readFileSync(require.resolve(path), "utf8") };
  } catch {
    return { error: `import not found in node_modules: ${path}` };
  }
}

function writeArtifacts(output: SolcOutput, ownSources: Set<string>): BuiltContract[] {
  mkdirSync(OUT_DIR, { recursive: true });
  const built: BuiltContract[] = [];
  for (const [unit, contracts] of Object.entries(output.contracts ?? {})) {
    if (!ownSources.has(unit)) continue;
    for (const [name, { abi, evm }] of Object.entries(contracts)) {
      const bytecode = evm.bytecode.object;
      // Abstract contracts and interfaces have no creation code.
      if (bytecode.length === 0) continue;
      if (bytecode.includes("__$")) throw new ContractCompileError([`${name} needs library linking`]);
      const artifact = {
        abi,
        bytecode: `0x${bytecode}`,
        deployedBytecode: `0x${evm.deployedBytecode.object}`,
      };
      writeAtomically(join(OUT_DIR, `${name}.json`), JSON.stringify(artifact));
      built.push({ name, size: bytecode.length / 2 });
    }
  }
  return built.sort((a, b) => a.name.localeCompare(b.name));
}

function readStamp(): Stamp | null {
  if (!existsSync(STAMP_FILE)) return null;
  try {
    return JSON.parse(readFileSync(STAMP_FILE, "utf8")) as Stamp;
  } catch {
    return null;
  }
}

function artifactsPresent(contracts: BuiltContract[]): boolean {
  return contracts.every((c) => existsSync(join(OUT_DIR, `${c.name}.json`)));
}

/** Rename is atomic, so a concurrent reader (a parallel test worker) never sees half a file. */
function writeAtomically(path: string, content: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}
