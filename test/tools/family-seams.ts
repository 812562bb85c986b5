/**
 * How far knowledge of the chain families reaches outside their folders: the figures the "adding a chain
 * family" docs page promises to keep small. Run: `npx tsx test/tools/family-seams.ts [repository root]`.
 *
 * A family folder is `src/chains/<family>/` or a local system's `<family>/` folder; the registries that
 * list the families are counted apart, since naming each family once is their job.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const FAMILIES = ["evm", "bitcoin", "solana", "starknet", "sui"];
const NAMES = FAMILIES.join("|");
const FAMILY_FOLDER = new RegExp(`(^|/)(chains|families|localnet)/(${NAMES})(/|$)`);
const REGISTRY = /(^|\/)registry\.ts$/;
const LOCAL_SYSTEM = /^(src\/localnet|packages\/[^/]+\/src)\//;

const BRANCH = new RegExp(`(===|!==)\\s*"(${NAMES})"|"(${NAMES})"\\s*(===|!==)|case\\s+"(${NAMES})"`, "g");
const KEYED_TABLE = new RegExp(`^\\s*"?(${NAMES})"?\\s*:\\s*[^:]`, "gm");
const IMPORT_PATH = /(?:from|import)\s*\(?\s*"([^"]+)"/g;

function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir))) {
    if (entry === "node_modules") continue;
    const path = join(dir, entry);
    if (statSync(join(root, path)).isDirectory()) out.push(...sourceFiles(root, path));
    else if (path.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** Package names the workspace resolves to its own folders (the product's exports, the local package's). */
const WORKSPACE_PACKAGES: [string, string][] = [
  ["htlc-solver/", "src/"],
  ["@htlc-solver/localnet/", "packages/localnet/src/"],
];

function importsOf(text: string): string[] {
  return [...text.matchAll(IMPORT_PATH)]
    .map((m) => m[1]!)
    .filter((p) => p.startsWith(".") || WORKSPACE_PACKAGES.some(([name]) => p.startsWith(name)));
}

function resolved(file: string, target: string): string {
  for (const [name, folder] of WORKSPACE_PACKAGES)
    if (target.startsWith(name)) return join(folder, target.slice(name.length));
  return join(file, "..", target);
}

const root = process.argv[2] ?? process.cwd();
const product = sourceFiles(root, "src").filter((f) => !LOCAL_SYSTEM.test(f));
let local: string[] = [];
for (const dir of ["src/localnet", "packages"]) {
  try {
    local = local.concat(sourceFiles(root, dir).filter((f) => LOCAL_SYSTEM.test(f)));
  } catch {
    // Not in this layout.
  }
}

interface Reach {
  naming: Set<string>;
  branches: number;
  tables: number;
  intoFamily: string[];
}

/** How far family knowledge reaches in `files`, family folders and registries apart. */
function reachOf(files: readonly string[]): Reach {
  const reach: Reach = { naming: new Set(), branches: 0, tables: 0, intoFamily: [] };
  for (const file of files.filter((f) => !FAMILY_FOLDER.test(f))) {
    const code = readFileSync(join(root, file), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    const branches = (code.match(BRANCH) ?? []).length;
    const tables = (code.match(KEYED_TABLE) ?? []).length;
    if (!REGISTRY.test(file)) {
      reach.branches += branches;
      reach.tables += tables;
    }
    if (branches + tables > 0 || new RegExp(`"(${NAMES})"`).test(code)) reach.naming.add(file);
    for (const target of importsOf(code)) {
      const to = resolved(file, target);
      if (!FAMILY_FOLDER.test(to)) continue;
      reach.naming.add(file);
      if (!REGISTRY.test(file)) reach.intoFamily.push(`${file} -> ${to}`);
    }
  }
  return reach;
}

const configUp: string[] = [];
const productToLocal: string[] = [];
for (const file of product) {
  const code = readFileSync(join(root, file), "utf8");
  for (const target of importsOf(code)) {
    const to = resolved(file, target);
    if (file.startsWith("src/config/") && to.startsWith("src/chains/")) configUp.push(`${file} -> ${to}`);
    if (LOCAL_SYSTEM.test(to) || /(^|\/)packages\//.test(to)) productToLocal.push(`${file} -> ${to}`);
  }
}
const productReach = reachOf(product);
const localReach = reachOf(local);

const lines = (files: string[]) =>
  files.reduce((sum, f) => sum + readFileSync(join(root, f), "utf8").split("\n").length - 1, 0);

const figures: [string, string | number][] = [];
for (const [area, reach] of [
  ["product", productReach],
  ["local system", localReach],
] as const) {
  figures.push(
    [`${area}: files outside family folders that name a family or import one`, reach.naming.size],
    [`${area}:   of which registries`, [...reach.naming].filter((f) => REGISTRY.test(f)).length],
    [`${area}: family branches (family folders and registries apart)`, reach.branches],
    [`${area}: family-keyed tables (family folders and registries apart)`, reach.tables],
    [`${area}: imports into a family folder (registries apart)`, reach.intoFamily.length],
  );
}
figures.push(
  ["imports from src/config into src/chains", configUp.length],
  ["imports from the product into the local system", productToLocal.length],
  ["product source lines (src/, local system apart)", lines(product)],
  ["local system source lines", lines(local)],
);
for (const [what, value] of figures) console.log(`${what.padEnd(72)} ${value}`);
if (process.argv.includes("--list")) {
  for (const [area, reach] of [
    ["product", productReach],
    ["local system", localReach],
  ] as const) {
    console.log(`\n${area}: files naming a family:`, [...reach.naming].sort());
    console.log(`${area}: imports into a family folder:`, reach.intoFamily);
  }
  console.log("imports from config into chains:", configUp);
  console.log("imports from the product into the local system:", productToLocal);
}
