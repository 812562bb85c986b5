/**
 * The quote flood as its own process, so that its work is not the benchmark's and not the solver's:
 * `node --import tsx test/bench/load/quote-flood-main.ts <settings.json> <counts.json>`. Floods from start
 * until SIGTERM (with `<counts.json>.started` written at its first answer), then writes what was answered
 * to the counts file and exits 0.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { QuoteFlood, type QuoteFloodSettings } from "./quote-flood.js";

const [settingsPath, countsPath] = process.argv.slice(2);
if (settingsPath === undefined || countsPath === undefined)
  throw new Error("usage: quote-flood-main.ts <settings JSON file> <counts JSON file to write>");
const flood = new QuoteFlood(JSON.parse(readFileSync(settingsPath, "utf8")) as QuoteFloodSettings);
flood.start();
void flood.firstAnswer.then(() => writeFileSync(`${countsPath}.started`, ""));
process.once("SIGTERM", () => {
  void flood.stop().then((counts) => {
    // Written whole, then moved into place: the benchmark reads the file as soon as it exists.
    writeFileSync(`${countsPath}.partial`, JSON.stringify(counts));
    renameSync(`${countsPath}.partial`, countsPath);
    process.exit(0);
  });
});
