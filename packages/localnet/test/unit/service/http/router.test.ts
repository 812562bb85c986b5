import { describe, expect, it } from "vitest";
import { matchRoute, type Route } from "../../../../src/service/http/router.js";

const handler = () => Promise.resolve(null);
const routes: Route[] = [
  { methods: ["GET"], pattern: "/v2/orders", handler },
  { methods: ["GET"], pattern: "/v2/orders/:id", handler },
  { methods: ["PATCH", "POST"], pattern: "/v2/orders/:id", handler },
];

describe("matchRoute", () => {
  it("captures parameters and tolerates a trailing slash", () => {
    expect(matchRoute(routes, "GET", "/v2/orders/abc/")).toMatchObject({
      kind: "found",
      params: { id: "abc" },
    });
    expect(matchRoute(routes, "POST", "/v2/orders/abc")).toMatchObject({
      kind: "found",
      params: { id: "abc" },
    });
  });

  it("tells an unknown path from a wrong method", () => {
    expect(matchRoute(routes, "GET", "/v2/order")).toEqual({ kind: "not-found" });
    expect(matchRoute(routes, "GET", "/v2/orders/a/b")).toEqual({ kind: "not-found" });
    expect(matchRoute(routes, "DELETE", "/v2/orders")).toEqual({
      kind: "method-not-allowed",
      allowed: ["GET"],
    });
  });
});
