import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The product's tests and the local system's (packages/localnet), in one run.
    include: ["test/**/*.test.ts", "packages/localnet/test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Chain-backed tests start their own processes; two workers fit a 2-core machine.
    pool: "forks",
    maxWorkers: 2,
  },
});
