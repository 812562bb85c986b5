/** The accept queue the kernel gave a listening TCP port, as `ss` shows it (Send-Q of its LISTEN line). */
import { execFileSync } from "node:child_process";

export function acceptQueueOf(port: number): number {
  const out = execFileSync("ss", ["-Hltn", `sport = :${port}`], { encoding: "utf8" });
  const fields = out.trim().split(/\s+/);
  const queue = Number(fields[2]);
  if (fields[0] !== "LISTEN" || !Number.isSafeInteger(queue))
    throw new Error(`ss shows no listening socket on port ${port}: ${JSON.stringify(out)}`);
  return queue;
}
