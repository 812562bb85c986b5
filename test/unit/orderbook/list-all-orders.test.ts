import { describe, expect, it } from "vitest";
import { OrderbookClient } from "../../../src/orderbook/client.js";
import { makeOrder } from "../../support/order-fixture.js";

/** A service listing `total` orders `perPage` to a page, each answer after `delayMs`, counting overlap. */
function pagedService(total: number, delayMs: number, failPage: number | null = null) {
  const asked: number[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const fetchImpl: typeof fetch = async (input) => {
    const url = new URL(String(input));
    const page = Number(url.searchParams.get("page"));
    const perPage = Number(url.searchParams.get("per_page"));
    asked.push(page);
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    inFlight -= 1;
    if (page === failPage) return new Response("{}", { status: 400 });
    const ids = Array.from({ length: total }, (_, i) => i)
      .slice((page - 1) * perPage, page * perPage)
      .map((i) => i.toString(16).padStart(64, "0"));
    const result = {
      data: ids.map((id) => ({ ...makeOrder(), order_id: id })),
      page,
      total_pages: Math.ceil(total / perPage),
      total_items: total,
      per_page: perPage,
    };
    return new Response(JSON.stringify({ status: "Ok", result }), { status: 200 });
  };
  const client = new OrderbookClient({
    baseUrl: "http://service.test",
    appId: "a",
    fetchImpl,
    maxAttempts: 1,
  });
  return { client, asked, mostInFlight: () => mostInFlight };
}

describe("OrderbookClient.listAllOrders", () => {
  it("reads every page after the first a few at a time and keeps the service's order", async () => {
    const service = pagedService(950, 20);
    const { orders, malformed } = await service.client.listAllOrders({ per_page: 100 });
    expect(malformed).toEqual([]);
    expect(orders.map((order) => parseInt(order.order_id, 16))).toEqual(
      Array.from({ length: 950 }, (_, i) => i),
    );
    expect(service.asked[0]).toBe(1);
    expect([...service.asked].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(service.mostInFlight()).toBe(4);
  });

  it("reads one page when one holds everything, and no more than the page limit", async () => {
    const one = pagedService(30, 1);
    expect((await one.client.listAllOrders({ per_page: 100 })).orders).toHaveLength(30);
    expect(one.asked).toEqual([1]);
    const capped = pagedService(5_000, 1);
    expect((await capped.client.listAllOrders({ per_page: 100 }, 3)).orders).toHaveLength(300);
    expect(capped.asked.sort((a, b) => a - b)).toEqual([1, 2, 3]);
  });

  it("fails the whole listing when a page fails", async () => {
    const service = pagedService(500, 5, 3);
    await expect(service.client.listAllOrders({ per_page: 100 })).rejects.toThrow(/400/);
  });
});
