/** Every problem found in one load, so an operator fixes the whole file in one pass. */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
    super(`invalid configuration (${count}):\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
    this.problems = problems;
  }
}

/** Collects `<key path>: <what is wrong>` lines while validation goes on. */
export class Problems {
  private readonly list: string[] = [];

  add(path: string, message: string): void {
    this.list.push(`${path}: ${message}`);
  }

  get count(): number {
    return this.list.length;
  }

  all(): readonly string[] {
    return [...this.list];
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw new ConfigError(this.list);
  }
}
