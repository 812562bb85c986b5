/** better-sqlite3 compiles SQL at every prepare(): each statement text is compiled once and reused. */
import type { Database, Statement } from "better-sqlite3";

export function compiledStatements(db: Database): (text: string) => Statement {
  const statements = new Map<string, Statement>();
  return (text) => {
    let statement = statements.get(text);
    if (statement === undefined) {
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
}
