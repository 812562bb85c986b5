import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { freePort } from "htlc-solver/util/free-port.js";

export interface AnvilOptions {
  chainId: number;
  port?: number;
  /** Seconds between blocks; undefined mines one block per transaction. */
  blockTime?: number;
  /** Mnemonic for the prefunded accounts; anvil's default when undefined. */
  mnemonic?: string;
  accounts?: number;
  /** State file to load at start and dump at exit, so a localnet can be resumed. */
  stateFile?: string;
}

export interface AnvilInstance {
  chainId: number;
  port: number;
  rpcUrl: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Path of the anvil binary shipped by the @foundry-rs npm package. */
export function anvilBinary(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve("@foundry-rs/anvil-linux-amd64/package.json");
  return join(dirname(pkg), "bin", "anvil");
}

export async function startAnvil(options: AnvilOptions): Promise<AnvilInstance> {
  const port = options.port ?? (await freePort());
  const args = ["--port", String(port), "--host", "127.0.0.1", "--chain-id", String(options.chainId)];
  if (options.blockTime !== undefined) args.push("--block-time", String(options.blockTime));
  if (options.mnemonic !== undefined) args.push("--mnemonic", options.mnemonic);
  if (options.accounts !== undefined) args.push("--accounts", String(options.accounts));
  if (options.stateFile !== undefined) args.push("--state", options.stateFile);
  const child = spawn(anvilBinary(), args, { stdio: ["ignore", "pipe", "pipe"] });
  const rpcUrl = `http://127.0.0.1:${port}`;
  await waitUntilListening(child, port);
  let exited = false;
  child.once("exit", () => (exited = true));
  return {
    chainId: options.chainId,
    port,
    rpcUrl,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

function waitUntilListening(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`anvil did not start listening on port ${port} within 30 s: ${output.slice(-500)}`));
    }, 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes(`Listening on 127.0.0.1:${port}`)) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        child.stdout?.resume();
        child.stderr?.resume();
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited with code ${code} before listening: ${output.slice(-500)}`));
    });
  });
}

/** One JSON-RPC call to a local node, for anvil's own methods (`anvil_setCode`, `evm_setIntervalMining`, ...). */
export async function anvilRequest(rpcUrl: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    // A local node answers at once; one that does not is reported, not waited on forever.
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method} on ${rpcUrl} failed: ${body.error.message}`);
  return body.result;
}

/** Switches a running anvil from mining per transaction to one block every `seconds`. */
export async function setIntervalMining(rpcUrl: string, seconds: number): Promise<void> {
  await anvilRequest(rpcUrl, "evm_setIntervalMining", [seconds]);
}
