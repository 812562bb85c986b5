/** An error the API answers with its envelope `{status: "Error", error}` and this HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly httpStatus: number,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const badRequest = (message: string): ApiError => new ApiError(400, message);
export const unauthorized = (message: string): ApiError => new ApiError(401, message);
export const notFound = (message: string): ApiError => new ApiError(404, message);
export const conflict = (message: string): ApiError => new ApiError(409, message);
export const quoteMismatch = (message: string): ApiError => new ApiError(422, message);
export const badGateway = (message: string): ApiError => new ApiError(502, message);

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return (error as { shortMessage?: string }).shortMessage ?? error.message;
  return String(error);
}
