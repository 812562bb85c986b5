/** Writes docs/attack-table.md from the attack table (`npm run attack-table`). */
import { writeFileSync } from "node:fs";
import { ATTACK_TABLE_DOC, renderAttackTable } from "./table-doc.js";

writeFileSync(ATTACK_TABLE_DOC, await renderAttackTable());
console.log(`wrote ${ATTACK_TABLE_DOC}`);
