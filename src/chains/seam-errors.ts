/**
 * The errors the chain seam speaks in. Each family's errors extend one of these where generic code must
 * act on what they mean; generic code asks by class, never by a flag on the object.
 */

/** The chain already shows the action's effect (a fill already there): the action is done, nothing is sent. */
export abstract class AlreadyOnChainError extends Error {}

/** A broadcast refused in a way no later broadcast of the same bytes can change (an input or nonce gone). */
export abstract class RefusedForGoodError extends Error {}

/**
 * No node of the chain answered: nothing is known, nothing was decided. Asked again later; never read as
 * the chain's answer (a refusal of a transaction's fee, say).
 */
export abstract class CannotAnswerNowError extends Error {}

/** Whether `error` or one of its causes, a few deep, is a "cannot answer now" of the seam. */
export function cannotAnswerNow(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current instanceof CannotAnswerNowError) return true;
    current = current.cause;
  }
  return false;
}
