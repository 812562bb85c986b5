import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ATTACK_TABLE_DOC, familiesRun, renderAttackTable } from "./support/table-doc.js";
import { ATTACK_CLASSES, FAMILIES } from "./table.js";

describe("the attack table", () => {
  it("has, for every class and family, a test or a written reason (or says the class is open)", () => {
    const missing = ATTACK_CLASSES.flatMap((cls) => {
      if (cls.open !== undefined) return [];
      const run = familiesRun(cls.slug);
      return FAMILIES.filter((f) => !run.includes(f) && cls.cannotExpress[f] === undefined).map(
        (f) => `${cls.slug}/${f}`,
      );
    });
    expect(missing).toEqual([]);
  });

  it("is what docs/attack-table.md shows (npm run attack-table writes it)", async () => {
    expect(readFileSync(ATTACK_TABLE_DOC, "utf8")).toBe(await renderAttackTable());
  });
});
