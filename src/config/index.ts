/** The configuration API the rest of the solver uses. */
export { ConfigError } from "./errors.js";
export { loadConfig, type LoadConfigOptions } from "./load.js";
export { redactConfig, REDACTED, type JsonValue } from "./redact.js";
export { redactUrl, redactUrlsDeep, redactUrlsInText } from "./redact-url.js";
export type * from "./types.js";
