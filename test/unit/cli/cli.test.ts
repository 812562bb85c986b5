import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli.js";
import { UsageError, type CliCommand } from "../../../src/cli/command.js";
import { discoverCommands } from "../../../src/cli/discover.js";
import { recordingIo } from "./io.js";

const echo: CliCommand = {
  name: "echo",
  summary: "Print the arguments",
  help: "Usage: solver echo [--loud] WORDS...",
  options: { loud: { type: "boolean" } },
  run: async ({ values, positionals, io }) => {
    if (positionals.length === 0) throw new UsageError("nothing to echo");
    if (positionals[0] === "boom") throw new Error("echo broke");
    const text = positionals.join(" ");
    io.stdout(values.loud === true ? text.toUpperCase() : text);
    return 0;
  },
};

describe("runCli", () => {
  it("finds the commands in src/cli/commands", async () => {
    const names = (await discoverCommands()).map((c) => c.name);
    expect(names).toContain("config");
  });

  it("runs a command with its options", async () => {
    const io = recordingIo();
    expect(await runCli(["echo", "--loud", "hi", "there"], { io, commands: [echo] })).toBe(0);
    expect(io.out).toEqual(["HI THERE"]);
  });

  it("prints the usage for --help and help, exit 0", async () => {
    for (const argv of [["--help"], ["-h"], ["help"]]) {
      const io = recordingIo();
      expect(await runCli(argv, { io, commands: [echo] })).toBe(0);
      expect(io.out[0]).toContain("Usage: solver <command> [options]");
      expect(io.out[0]).toContain("echo      Print the arguments");
    }
  });

  it("prints a command's help for --help and help <command>", async () => {
    for (const argv of [
      ["echo", "--help"],
      ["help", "echo"],
    ]) {
      const io = recordingIo();
      expect(await runCli(argv, { io, commands: [echo] })).toBe(0);
      expect(io.out).toEqual(["Usage: solver echo [--loud] WORDS..."]);
    }
  });

  it("answers an unknown or missing command with the usage, exit 2", async () => {
    const unknown = recordingIo();
    expect(await runCli(["fly"], { io: unknown, commands: [echo] })).toBe(2);
    expect(unknown.err[0]).toMatch(/^solver: unknown command "fly"\n\nUsage: solver <command>/);
    const none = recordingIo();
    expect(await runCli([], { io: none, commands: [echo] })).toBe(2);
    expect(none.err[0]).toContain("Usage: solver <command>");
  });

  it("answers an unknown option or a usage error with the command's help, exit 2", async () => {
    const option = recordingIo();
    expect(await runCli(["echo", "--quiet", "x"], { io: option, commands: [echo] })).toBe(2);
    expect(option.err[0]).toMatch(/^solver echo: Unknown option '--quiet'/);
    expect(option.err[0]).toContain("Usage: solver echo");
    const usage = recordingIo();
    expect(await runCli(["echo"], { io: usage, commands: [echo] })).toBe(2);
    expect(usage.err[0]).toMatch(/^solver echo: nothing to echo\n\nUsage: solver echo/);
  });

  it("reports a failing command with its message, exit 1", async () => {
    const io = recordingIo();
    expect(await runCli(["echo", "boom"], { io, commands: [echo] })).toBe(1);
    expect(io.err).toEqual(["solver echo: echo broke"]);
  });

  it("runs from bin/solver.js as a real executable", async () => {
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ["bin/solver.js", "--help"], {
      env: { PATH: process.env.PATH },
    });
    expect(stdout).toContain("config");
    const failure = await run(process.execPath, ["bin/solver.js", "fly"]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain('unknown command "fly"');
  });
});
