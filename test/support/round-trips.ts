/**
 * How many round trips a client waited one after another: the longest chain of requests in which each
 * was sent only after the one before it was answered. Requests sent side by side (or in one JSON-RPC
 * batch) count once. With every request held a fixed time at a proxy, the chain is the client's
 * latency in round trips, whatever the machine's speed.
 */
export interface TimedRequest {
  methods: string[];
  arrivedMs: number;
  answeredMs: number;
}

export function roundTripsInARow(requests: readonly TimedRequest[]): {
  count: number;
  chain: string[][];
} {
  const sorted = [...requests].sort((a, b) => a.arrivedMs - b.arrivedMs);
  const longest: { count: number; chain: string[][] }[] = [];
  sorted.forEach((request, i) => {
    let best: { count: number; chain: string[][] } = { count: 0, chain: [] };
    for (let j = 0; j < i; j++) {
      const before = sorted[j]!;
      if (before.answeredMs <= request.arrivedMs && longest[j]!.count > best.count) best = longest[j]!;
    }
    longest.push({ count: best.count + 1, chain: [...best.chain, request.methods] });
  });
  return longest.reduce((a, b) => (b.count > a.count ? b : a), { count: 0, chain: [] });
}
