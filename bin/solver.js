#!/usr/bin/env node
// Runs the TypeScript CLI in-process through tsx, so `npx solver ...` works without a build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli.ts");
await main(process.argv.slice(2));
