import { redactUrlsInText } from "../config/redact-url.js";

/** The service answered with its error envelope or an HTTP error. */
export class ServiceError extends Error {
  override readonly name = "ServiceError";
  /** What the service said, URLs shown as scheme, host and port (a proxy's error page may quote one). */
  readonly serviceMessage: string;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly httpStatus: number,
    serviceMessage: string,
  ) {
    const safeMessage = redactUrlsInText(serviceMessage);
    super(`${method} ${path} failed with HTTP ${httpStatus}: ${safeMessage}`);
    this.serviceMessage = safeMessage;
  }

  /** Worth retrying: the service or something in front of it is overloaded or down. */
  get retryable(): boolean {
    return this.httpStatus === 429 || this.httpStatus >= 500;
  }
}

/** The service answered, but not in the shape the API defines. */
export class MalformedResponseError extends Error {
  override readonly name = "MalformedResponseError";
  constructor(
    readonly path: string,
    readonly problems: string,
  ) {
    super(`malformed response from ${path}: ${problems}`);
  }
}
