/** `npm run build:programs`: compile and link the Solana HTLC programs into contracts/solana/build. */
import { buildPrograms } from "./compile.js";

try {
  for (const program of buildPrograms()) {
    console.log(`${program.name.padEnd(20)} ${String(program.size).padStart(7)} bytes  ${program.path}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
