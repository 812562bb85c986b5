/**
 * A point in this process's monotonic time, to tell which of two reads began after the other (a
 * chain's tip, then an index sync) or how long something has waited. Never a wall-clock time: it does
 * not move when the system clock is set, and a test's fake clock does not move it.
 */
export function moment(): number {
  return performance.now();
}
