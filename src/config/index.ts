/** The configuration API the rest of the solver uses. */
export { ConfigError } from "./errors.js";
export { loadConfig, type LoadConfigOptions } from "./load.js";
export { redactConfig, REDACTED, type JsonValue } from "./redact.js";
export { redactUrl } from "./redact-url.js";
export type * from "./types.js";
