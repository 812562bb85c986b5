import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../../src/cli.js";
import { PACKAGE_ROOT, buildInfo, formatBuildInfo } from "../../../../src/cli/build-info.js";
import { recordingIo } from "../io.js";

const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);

function packageDir(): string {
  const root = mkdtempSync(join(tmpdir(), "build-info-"));
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "htlc-solver", version: "9.8.7" }));
  return root;
}

describe("solver version", () => {
  it("prints the checkout's HEAD commit for --version and version", async () => {
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: PACKAGE_ROOT }).toString().trim();
    for (const argv of [["--version"], ["version"]]) {
      const io = recordingIo();
      expect(await runCli(argv, { io })).toBe(0);
      expect(io.out[0]).toMatch(new RegExp(`^htlc-solver \\d+\\.\\d+\\.\\d+ \\(commit ${head}\\)$`));
    }
    const json = recordingIo();
    expect(await runCli(["version", "--json"], { io: json })).toBe(0);
    expect(JSON.parse(json.out[0]!)).toMatchObject({
      name: "htlc-solver",
      commit: head,
      commitSource: "git",
    });
  });

  it("follows a ref through loose refs, packed-refs and a worktree's .git file", () => {
    const loose = packageDir();
    mkdirSync(join(loose, ".git/refs/heads"), { recursive: true });
    writeFileSync(join(loose, ".git/HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(loose, ".git/refs/heads/main"), `${A}\n`);
    expect(buildInfo({}, loose)).toMatchObject({ version: "9.8.7", commit: A, commitSource: "git" });

    const packed = packageDir();
    mkdirSync(join(packed, ".git"));
    writeFileSync(join(packed, ".git/HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(packed, ".git/packed-refs"), `# pack-refs\n${B} refs/heads/main\n`);
    expect(buildInfo({}, packed).commit).toBe(B);

    const worktree = packageDir();
    const common = join(packed, ".git");
    const own = join(common, "worktrees/wt");
    mkdirSync(own, { recursive: true });
    writeFileSync(join(own, "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(own, "commondir"), "../..\n");
    writeFileSync(join(worktree, ".git"), `gitdir: ${own}\n`);
    expect(buildInfo({}, worktree).commit).toBe(B);
  });

  it("reads BUILD_COMMIT from the environment, then from the file, and says when neither is there", () => {
    const root = packageDir();
    expect(buildInfo({ BUILD_COMMIT: C }, root)).toMatchObject({ commit: C, commitSource: "env" });
    const none = buildInfo({}, root);
    expect(none).toMatchObject({ commit: null, commitSource: "none" });
    expect(formatBuildInfo(none)).toBe(
      "htlc-solver 9.8.7 (commit unknown: no .git checkout and no BUILD_COMMIT)",
    );
    writeFileSync(join(root, "BUILD_COMMIT"), `${A}\n`);
    const fromFile = buildInfo({ BUILD_COMMIT: "not a commit" }, root);
    expect(fromFile).toMatchObject({ commit: A, commitSource: "file" });
    expect(formatBuildInfo(fromFile)).toBe(`htlc-solver 9.8.7 (commit ${A} from BUILD_COMMIT)`);
  });
});
