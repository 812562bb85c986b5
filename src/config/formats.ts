/**
 * Value formats of the scalar settings, registered with convict. `validate` returns the problem or
 * null; `coerce` turns an environment string into the setting's type, leaving it untouched (so that
 * validation names it) when it does not parse.
 */
import convict from "convict";
import { MIN_QUOTE_SECRET_LENGTH } from "../pricing/quote-signature.js";
import {
  checkHttpUrl,
  checkInteger,
  checkNonEmptyString,
  checkOneOf,
  describeValue,
  parseAmount,
} from "./checks.js";

export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;

interface FormatSpec {
  validate(value: unknown): string | null;
  coerce?(value: string): unknown;
}

const toInteger = (value: string): unknown => (/^[0-9]+$/.test(value.trim()) ? Number(value.trim()) : value);

export const FORMATS = {
  "solver-http-url": {
    validate: (v) => (v === "" ? "is required" : checkHttpUrl(v)),
  },
  "solver-app-id": {
    // Sensitive: the message never quotes the value.
    validate: (v) => {
      if (v === "") return "is required";
      return typeof v === "string" && /^[0-9a-fA-F]{64}$/.test(v)
        ? null
        : "must be 64 hexadecimal characters";
    },
  },
  "solver-quote-secret": {
    // Sensitive: the message never quotes the value.
    validate: (v) => {
      if (typeof v !== "string") return "must be a string";
      return v === "" || v.length >= MIN_QUOTE_SECRET_LENGTH
        ? null
        : `must be empty (quote requests unsigned) or at least ${MIN_QUOTE_SECRET_LENGTH} characters`;
    },
  },
  "solver-hex-id": {
    validate: (v) => {
      if (v === "") return "is required";
      return typeof v === "string" && /^[0-9a-fA-F]{1,128}$/.test(v)
        ? null
        : `${describeValue(v)} must be hexadecimal without 0x`;
    },
  },
  "solver-positive-int": { validate: (v) => checkInteger(v, 1), coerce: toInteger },
  "solver-bps": { validate: (v) => checkInteger(v, 0, 10_000), coerce: toInteger },
  "solver-port": { validate: (v) => checkInteger(v, 0, 65535), coerce: toInteger },
  "solver-amount": {
    validate: (v) => {
      const parsed = parseAmount(v);
      return typeof parsed === "bigint" ? null : parsed.problem;
    },
  },
  "solver-text": { validate: checkNonEmptyString },
  "solver-optional-text": {
    validate: (v) => (typeof v === "string" ? null : `${describeValue(v)} must be a string`),
  },
  // Private keys are checked where the key file is merged in; here only their type, never their value.
  "solver-private-key": { validate: (v) => (typeof v === "string" ? null : "must be a string") },
  "solver-log-level": { validate: (v) => checkOneOf(v, LOG_LEVELS) },
  "solver-boolean": {
    validate: (v) => (typeof v === "boolean" ? null : `${describeValue(v)} must be true or false`),
    // The environment gives text; anything but "true" or "false" stays text and is reported.
    coerce: (v) => (v.trim() === "true" ? true : v.trim() === "false" ? false : v),
  },
} satisfies Record<string, FormatSpec>;

export type FormatName = keyof typeof FORMATS;

let registered = false;

/** Convict keeps formats in a module-wide registry; register ours once. */
export function registerFormats(): void {
  if (registered) return;
  for (const [name, spec] of Object.entries(FORMATS) as [string, FormatSpec][]) {
    convict.addFormat({
      name,
      validate: (value: unknown) => {
        const problem = spec.validate(value);
        if (problem !== null) throw new Error(problem);
      },
      ...(spec.coerce === undefined ? {} : { coerce: spec.coerce }),
    });
  }
  registered = true;
}
