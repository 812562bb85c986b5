/**
 * A read shared by every caller within one turn of the event loop, read again in the next. A burst of
 * quotes arrives many to a turn, and each quote asks for the same journal sums once per asset; sharing
 * them keeps a quote at one read of the journal without letting it be older than the turn it is answered in.
 */
export function sameTurn<T>(read: () => T): () => T {
  let held: { value: T } | null = null;
  return () => {
    if (held === null) {
      held = { value: read() };
      setImmediate(() => {
        held = null;
      });
    }
    return held.value;
  };
}
