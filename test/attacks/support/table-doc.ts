/**
 * `docs/attack-table.md`, rendered from the attack table (`test/attacks/table.ts`) and the class files:
 * which families run each class (the keys of its `forEachFamily` call), which cannot and why, and which
 * classes the project does not defend yet. `npm run attack-table` writes it; a test keeps it current.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { format, resolveConfig } from "prettier";
import { ATTACK_CLASSES, FAMILIES, type AttackClass, type Family } from "../table.js";

const ATTACKS_DIR = join(import.meta.dirname, "..");
export const ATTACK_TABLE_DOC = join(import.meta.dirname, "../../../docs/attack-table.md");

/** Families the class file runs: the keys of the object given to `forEachFamily`. */
export function familiesRun(slug: string): Family[] {
  const text = readFileSync(join(ATTACKS_DIR, `${slug}.test.ts`), "utf8");
  const call = text.slice(text.indexOf(`forEachFamily("${slug}"`));
  return FAMILIES.filter((family) => new RegExp(`^\\s+${family}: `, "m").test(call));
}

function cell(cls: AttackClass, family: Family, run: readonly Family[]): string {
  if (cls.open !== undefined) return "open";
  if (run.includes(family)) return "runs";
  const reason = cls.cannotExpress[family];
  return reason === undefined ? "**missing**" : `cannot: ${reason}`;
}

/** The page as prettier lays it out, so that the file the formatter checks is the file this renders. */
export async function renderAttackTable(): Promise<string> {
  const lines = [
    "# The attack table",
    "",
    "Every way a solver loses money, as classes, and the chain families each class runs against. Each class",
    "is one test file, `test/attacks/<class>.test.ts`, which runs the class against every family that can",
    "express it; a family that cannot says why. A family is not done until it runs every class it can",
    "express. Each test drives the chains and the service as the attacker would and checks both sides'",
    "balances: the attacker ends with no more than the order's fair outcome, the solver with no less.",
    "`solana` is a Solana chain on the current HTLC programs, `solana_legacy` one on the legacy programs",
    "(`programVersion: legacy`, [solana-programs.md](solana-programs.md)): each class file runs its legacy",
    "cases on a legacy localnet of their own.",
    "",
    "Rendered from `test/attacks/table.ts` by `npm run attack-table`; a test fails when this page is stale.",
    "",
    `| class | file | ${FAMILIES.join(" | ")} |`,
    `| --- | --- | ${FAMILIES.map(() => "---").join(" | ")} |`,
  ];
  for (const cls of ATTACK_CLASSES) {
    const run = familiesRun(cls.slug);
    const cells = FAMILIES.map((family) => cell(cls, family, run));
    lines.push(`| ${cls.title} | \`${cls.slug}.test.ts\` | ${cells.join(" | ")} |`);
  }
  lines.push("");
  for (const cls of ATTACK_CLASSES) {
    lines.push(`## ${cls.title}`, "", `How it looks: ${cls.looksLike}.`, "", `What holds: ${cls.holds}.`, "");
    if (cls.open !== undefined) lines.push(`Not defended yet: ${cls.open}.`, "");
  }
  const options = (await resolveConfig(ATTACK_TABLE_DOC)) ?? {};
  return format(lines.join("\n"), { ...options, filepath: ATTACK_TABLE_DOC });
}
