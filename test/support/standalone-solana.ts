/**
 * The project's local Solana chain as a standalone JSON-RPC server, a stand-in for solana-test-validator
 * when none can be installed: slots advance every 400 ms (a real cluster's pace), the HTLC programs sit
 * at their default ids, and tests reach it only over RPC through SOLANA_RPC_URL. Prints its URL and
 * runs until killed.
 *
 *   npx tsx test/support/standalone-solana.ts [port]   # port 8899 (the validator's) by default, 0: any free one
 */
import { startLocalSolana } from "@htlc-solver/localnet/families/solana/chain/index.js";

const port = Number(process.argv[2] ?? 8899);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`usage: standalone-solana.ts [port], got ${process.argv[2]}`);
  process.exit(2);
}

const sol = await startLocalSolana({ port, slotMs: 400 });
console.log(sol.url);

// The slot timer is unref'd; the listening server keeps the process up until a signal stops it.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void sol.stop().then(() => process.exit(0));
  });
}
