/**
 * Which build of the solver runs: the package's version and the git commit it was built from. The commit
 * is read at run time from the checkout's `.git` (a worktree's `.git` file is followed); an image has
 * no `.git`, so its build writes the commit into the `BUILD_COMMIT` environment variable or a
 * `BUILD_COMMIT` file at the package's root.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The nearest folder above this file with a package.json: the root from src/ and from a build's dist/src/. */
function packageRootAbove(file: string): string {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${file}`);
  }
}

export const PACKAGE_ROOT = packageRootAbove(fileURLToPath(import.meta.url));

export interface BuildInfo {
  name: string;
  version: string;
  /** Full commit hash, or null when neither `.git` nor `BUILD_COMMIT` tells it. */
  commit: string | null;
  /** Where the commit was read: `git`, `env` (BUILD_COMMIT), `file` (<root>/BUILD_COMMIT) or `none`. */
  commitSource: "git" | "env" | "file" | "none";
}

const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return null;
  }
}

/** The git directory of the checkout at `root`: `.git` itself, or where a worktree's `.git` file points. */
function gitDirOf(root: string): string | null {
  const dotGit = join(root, ".git");
  if (!existsSync(dotGit)) return null;
  if (statSync(dotGit).isDirectory()) return dotGit;
  const pointer = /^gitdir:\s*(.+)$/m.exec(readText(dotGit) ?? "")?.[1]?.trim();
  if (pointer === undefined) return null;
  return isAbsolute(pointer) ? pointer : resolve(root, pointer);
}

/** A linked worktree keeps its HEAD in its own directory and its refs in the common one. */
function commonDirOf(gitDir: string): string {
  const common = readText(join(gitDir, "commondir"));
  return common === null ? gitDir : resolve(gitDir, common);
}

function refCommit(gitDir: string, ref: string): string | null {
  for (const dir of [gitDir, commonDirOf(gitDir)]) {
    const loose = readText(join(dir, ref));
    if (loose !== null && COMMIT.test(loose)) return loose;
    const packed = readText(join(dir, "packed-refs"));
    const line = packed?.split("\n").find((l) => l.endsWith(` ${ref}`));
    const hash = line?.split(" ")[0];
    if (hash !== undefined && COMMIT.test(hash)) return hash;
  }
  return null;
}

/** The commit HEAD names in the checkout at `root`; null where there is no readable `.git`. */
export function gitCommit(root: string): string | null {
  const gitDir = gitDirOf(root);
  if (gitDir === null) return null;
  const head = readText(join(gitDir, "HEAD"));
  if (head === null) return null;
  if (COMMIT.test(head)) return head;
  const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
  return ref === undefined ? null : refCommit(gitDir, ref);
}

export function buildInfo(env: NodeJS.ProcessEnv, root: string = PACKAGE_ROOT): BuildInfo {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    name: string;
    version: string;
  };
  const base = { name: pkg.name, version: pkg.version };
  const fromGit = gitCommit(root);
  if (fromGit !== null) return { ...base, commit: fromGit, commitSource: "git" };
  const fromEnv = env.BUILD_COMMIT?.trim().toLowerCase();
  if (fromEnv !== undefined && COMMIT.test(fromEnv)) return { ...base, commit: fromEnv, commitSource: "env" };
  const fromFile = readText(join(root, "BUILD_COMMIT"))?.toLowerCase();
  if (fromFile !== undefined && COMMIT.test(fromFile))
    return { ...base, commit: fromFile, commitSource: "file" };
  return { ...base, commit: null, commitSource: "none" };
}

/** One line: `htlc-solver 0.1.0 (commit 1a2b…)`, or `(commit unknown: …)` when nothing tells it. */
export function formatBuildInfo(info: BuildInfo): string {
  const commit =
    info.commit === null
      ? "commit unknown: no .git checkout and no BUILD_COMMIT"
      : `commit ${info.commit}${info.commitSource === "git" ? "" : ` from BUILD_COMMIT`}`;
  return `${info.name} ${info.version} (${commit})`;
}
