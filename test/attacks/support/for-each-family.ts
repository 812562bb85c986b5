/**
 * Runs one attack class against every chain family: a `describe` per family that expresses it, and for
 * the others a skipped test that says why (the table's reason). A family with neither a body here nor a
 * reason in the table fails the whole file, so a new family cannot pass a class by being left out.
 */
import { describe, it } from "vitest";
import { attackClass, FAMILIES, type Family } from "../table.js";

export function forEachFamily(slug: string, bodies: Partial<Record<Family, () => void>>): void {
  const cls = attackClass(slug);
  for (const family of FAMILIES) {
    const body = bodies[family];
    const reason = cls.cannotExpress[family];
    if (body !== undefined && reason !== undefined) {
      throw new Error(`${slug}: ${family} has a test and a reason it cannot express the class; keep one`);
    }
    describe(family, () => {
      if (cls.open !== undefined) it.skip(`not defended yet: ${cls.open}`, () => undefined);
      else if (body !== undefined) body();
      else if (reason !== undefined) it.skip(`cannot express the class: ${reason}`, () => undefined);
      else {
        it("runs the class or says in test/attacks/table.ts why it cannot", () => {
          throw new Error(`attack class ${slug} has no test and no reason for the ${family} family`);
        });
      }
    });
  }
}
