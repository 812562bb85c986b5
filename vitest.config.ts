import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Chain-backed tests start their own processes; two workers fit a 2-core machine.
    pool: "forks",
    maxWorkers: 2,
  },
});
