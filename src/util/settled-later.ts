/**
 * A promise started now and awaited later, or never when an earlier step throws first: its rejection
 * is marked as handled, so it cannot end the process as an unhandled rejection. Awaiting it still
 * throws.
 */
export function settledLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
