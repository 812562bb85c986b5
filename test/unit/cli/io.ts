import type { CliIo } from "../../../src/cli/command.js";

/** A CLI io that records what a command prints. */
export function recordingIo(env: NodeJS.ProcessEnv = {}): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, env, stdout: (text) => out.push(text), stderr: (text) => err.push(text) };
}
