import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules",
      "contracts/evm/out",
      ".localnet",
      "coverage",
      "dist",
      "bin",
      "packages/localnet/bin",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "max-depth": ["error", 4],
      "max-lines": ["error", { max: 1000, skipBlankLines: true, skipComments: true }],
      "no-console": ["error", { allow: ["error"] }],
    },
  },
  {
    files: [
      "test/**",
      "src/cli.ts",
      "src/cli/**",
      "contracts/**",
      "packages/localnet/test/**",
      "packages/localnet/src/cli/**",
      "packages/localnet/src/demo*.ts",
    ],
    rules: { "no-console": "off" },
  },
);
