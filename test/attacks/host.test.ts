/** Attack class: the host (test/attacks/table.ts): open until keys live apart from the daemon. */
import { forEachFamily } from "./support/for-each-family.js";

forEachFamily("host", {});
