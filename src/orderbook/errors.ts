/** The service answered with its error envelope or an HTTP error. */
export class ServiceError extends Error {
  override readonly name = "ServiceError";
  constructor(
    readonly method: string,
    readonly path: string,
    readonly httpStatus: number,
    readonly serviceMessage: string,
  ) {
    super(`${method} ${path} failed with HTTP ${httpStatus}: ${serviceMessage}`);
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
