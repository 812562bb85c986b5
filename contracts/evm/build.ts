/** `npm run build:contracts`: compile the EVM contracts into contracts/evm/out. */
import { buildContracts } from "./compile.js";

try {
  const started = Date.now();
  const result = buildContracts({ force: process.argv.includes("--force") });
  for (const warning of result.warnings) console.warn(warning);
  const state = result.upToDate ? "up to date" : "compiled";
  for (const contract of result.contracts) {
    console.log(`${contract.name.padEnd(16)} ${String(contract.size).padStart(6)} bytes  ${state}`);
  }
  console.log(`contracts/evm/out ready in ${Date.now() - started} ms`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
