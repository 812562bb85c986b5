/**
 * Reloads the configuration file on SIGHUP and when the file changes. The file is read and validated as at
 * start; a bad one is refused with every problem (each naming its key) logged, and the configuration in
 * force stays. A good one has its reloadable parts applied (see reloadable.ts); every other key it
 * changes is named in a warning and keeps its value in force until a restart.
 */
import { statSync } from "node:fs";
import { stat } from "node:fs/promises";
import type { Logger } from "pino";
import { ConfigError } from "../config/errors.js";
import type { SolverConfig } from "../config/types.js";
import { reloadedChanges, restartOnlyChanges, withReloadedParts } from "./reloadable.js";

export type ReloadTrigger = "SIGHUP" | "file change" | "request";

export type ReloadOutcome =
  | { applied: true; changed: string[]; needRestart: string[] }
  | { applied: false; problems: readonly string[] };

export interface ConfigReloaderOptions {
  /** The profile file to watch. */
  file: string;
  /** Reads and validates the configuration as at start; throws ConfigError on problems. */
  load(): SolverConfig;
  /** The configuration in force at start. */
  initial: SolverConfig;
  /** Puts a configuration in force (the running solver's reloadable parts). */
  apply(config: SolverConfig): Promise<void>;
  logger: Logger;
  /** How often the file's modification time is checked; polling survives editors that replace the file. */
  watchIntervalMs?: number;
}

/** What identifies a version of the file; null when it cannot be read (being replaced, or removed). */
function versionOf(stats: { mtimeMs: number; size: number } | null): string | null {
  return stats === null ? null : `${stats.mtimeMs}/${stats.size}`;
}

export class ConfigReloader {
  private current: SolverConfig;
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private seen: string | null = null;
  private readonly onSignal = () => void this.reload("SIGHUP");

  constructor(private readonly options: ConfigReloaderOptions) {
    this.current = options.initial;
  }

  /** The configuration in force now. */
  get config(): SolverConfig {
    return this.current;
  }

  start(): void {
    process.on("SIGHUP", this.onSignal);
    // The version in force is taken now, so a change made right after start is not missed.
    this.seen = versionOf(statSync(this.options.file, { throwIfNoEntry: false }) ?? null);
    this.timer = setInterval(() => void this.checkFile(), this.options.watchIntervalMs ?? 1_000);
    this.timer.unref();
  }

  stop(): Promise<void> {
    process.off("SIGHUP", this.onSignal);
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    return this.queue.then(() => undefined);
  }

  private async checkFile(): Promise<void> {
    const version = versionOf(await stat(this.options.file).catch(() => null));
    // A file missing for a moment is an editor replacing it: wait for the new one.
    if (version === null || version === this.seen) return;
    this.seen = version;
    await this.reload("file change");
  }

  /** One reload at a time, in the order asked: two quick edits end with the last one in force. */
  reload(trigger: ReloadTrigger): Promise<ReloadOutcome> {
    const next = this.queue.then(() => this.reloadNow(trigger));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async reloadNow(trigger: ReloadTrigger): Promise<ReloadOutcome> {
    const { logger, file } = this.options;
    let loaded: SolverConfig;
    try {
      loaded = this.options.load();
    } catch (error) {
      const problems = error instanceof ConfigError ? error.problems : [(error as Error).message];
      logger.error(
        { trigger, file, problems },
        "configuration reload refused; the configuration in force stays",
      );
      return { applied: false, problems };
    }
    const needRestart = restartOnlyChanges(this.current, loaded);
    const changed = reloadedChanges(this.current, loaded);
    const next = withReloadedParts(this.current, loaded);
    try {
      await this.options.apply(next);
    } catch (error) {
      const problems = [(error as Error).message];
      logger.error(
        { trigger, file, problems },
        "configuration reload failed; the configuration in force stays",
      );
      return { applied: false, problems };
    }
    this.current = next;
    logger.info({ trigger, file, changed }, "configuration reloaded");
    if (needRestart.length > 0) {
      logger.warn(
        { trigger, file, keys: needRestart },
        "these settings changed but take effect only after a restart",
      );
    }
    return { applied: true, changed, needRestart };
  }
}
