import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../../src/cli.js";
import { command as run } from "../../../../src/cli/commands/run.js";
import { recordingIo } from "../io.js";

function profile(settings: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), "run-")), "solver.json");
  writeFileSync(file, JSON.stringify(settings));
  return file;
}

describe("solver run", () => {
  it("prints every problem of a bad configuration and exits 2 without starting anything", async () => {
    const file = profile({
      service: { url: "htp://nowhere" },
      solver: { pollIntervalMs: -5 },
      ops: { port: 70000 },
    });
    const io = recordingIo({});
    expect(await runCli(["run", "--config", file], { io, commands: [run] })).toBe(2);
    const text = io.err.join("\n");
    expect(text).toMatch(/^invalid configuration \(\d+ problems\):/);
    for (const key of ["service.url", "service.appId", "solver.id", "solver.pollIntervalMs", "ops.port"]) {
      expect(text).toContain(`  - ${key}: `);
    }
    expect(io.out).toEqual([]);
  });

  it("reads the profile named by SOLVER_CONFIG when --config is absent", async () => {
    const file = profile({ service: { url: "htp://nowhere" } });
    const io = recordingIo({ SOLVER_CONFIG: file });
    expect(await runCli(["run"], { io, commands: [run] })).toBe(2);
    expect(io.err.join("\n")).toContain('service.url: "htp://nowhere"');
  });

  it("takes no arguments", async () => {
    const io = recordingIo({});
    expect(await runCli(["run", "now"], { io, commands: [run] })).toBe(2);
    expect(io.err[0]).toMatch(/^solver run: unexpected argument "now"\n\nUsage: solver run/);
  });
});
