/** A small path router: `/v2/orders/:id` patterns, one handler per method. */
export interface ApiRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body; undefined when there was none. */
  body: unknown;
}

/** Returns the `result` of the Ok envelope, or throws an ApiError. */
export type Handler = (request: ApiRequest) => Promise<unknown>;

export interface Route {
  methods: string[];
  pattern: string;
  handler: Handler;
}

export type RouteMatch =
  | { kind: "found"; handler: Handler; params: Record<string, string> }
  | { kind: "method-not-allowed"; allowed: string[] }
  | { kind: "not-found" };

export function matchRoute(routes: Route[], method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPattern(route.pattern, path);
    if (params === null) continue;
    if (route.methods.includes(method)) return { kind: "found", handler: route.handler, params };
    allowed.push(...route.methods);
  }
  return allowed.length > 0 ? { kind: "method-not-allowed", allowed } : { kind: "not-found" };
}

function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const expected = pattern.split("/");
  const actual = path.replace(/\/+$/, "").split("/");
  if (expected.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (const [i, segment] of expected.entries()) {
    const value = actual[i] ?? "";
    if (segment.startsWith(":")) {
      if (value === "") return null;
      params[segment.slice(1)] = decodeURIComponent(value);
    } else if (segment !== value) {
      return null;
    }
  }
  return params;
}
