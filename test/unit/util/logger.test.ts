import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, redactPaths, REDACT_DEPTH, SECRET_LOG_KEYS } from "../../../src/util/logger.js";

const KEY = `0x${"a1".repeat(32)}`;
const SECRET = "5ec7e7".repeat(10);
const APP_ID = "c3".repeat(32);

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString()
          .split("\n")
          .filter((l) => l !== ""),
      );
      done();
    },
  });
  return { lines, logger: createLogger({ level: "trace", destination }) };
}

describe("createLogger", () => {
  it("never writes a key, a secret or an app id, at any depth", () => {
    const { lines, logger } = capture();
    logger.info({ privateKey: KEY, secret: SECRET, appId: APP_ID }, "top level");
    logger.info(
      { order: { destination_swap: { secret: SECRET } }, req: { headers: { "service-app-id": APP_ID } } },
      "nested",
    );
    logger.info({ config: { solver: { keys: { evm: KEY } }, service: { appId: APP_ID } } }, "config");
    logger.info({ a: { b: { c: { d: { e: { preimage: SECRET } } } } } }, "five levels down");
    logger.info({ list: [{ privateKey: KEY }, { password: "hunter2" }] }, "in arrays");
    logger.child({ appId: APP_ID }).warn({ rpcPassword: "hunter2", authorization: "Bearer x" }, "child");
    logger.info(
      { chain: { relayerSecretKey: "base58relayer" }, user: { secretKey: "base58user" } },
      "solana",
    );
    const text = lines.join("\n");
    for (const secret of [
      KEY,
      KEY.slice(2),
      SECRET,
      APP_ID,
      "hunter2",
      "Bearer x",
      "base58relayer",
      "base58user",
    ])
      expect(text).not.toContain(secret);
    expect(lines).toHaveLength(7);
    expect(text.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(12);
    const nested = JSON.parse(lines[1]!) as { order: { destination_swap: { secret: string } } };
    expect(nested.order.destination_swap.secret).toBe("[redacted]");
  });

  it("keeps what is not secret, and leaves the caller's object untouched", () => {
    const { lines, logger } = capture();
    const payload = { orderId: "ab12", secretHash: "ff00", secret: SECRET };
    logger.info(payload, "fill");
    expect(JSON.parse(lines[0]!)).toMatchObject({
      orderId: "ab12",
      secretHash: "ff00",
      secret: "[redacted]",
      msg: "fill",
    });
    expect(payload.secret).toBe(SECRET);
  });

  it("writes bigints as exact decimal strings", () => {
    const { lines, logger } = capture();
    logger.info({ amount: 123456789012345678901234567890n, nested: { list: [1n, 2n] } }, "amounts");
    const line = JSON.parse(lines[0]!) as { amount: string; nested: { list: string[] } };
    expect(line.amount).toBe("123456789012345678901234567890");
    expect(line.nested.list).toEqual(["1", "2"]);
  });

  it("still serialises errors and respects the level", () => {
    const { lines, logger } = capture();
    const quiet = createLogger({
      level: "warn",
      destination: new Writable({ write: (_c, _e, done) => done() }),
    });
    expect(quiet.isLevelEnabled("info")).toBe(false);
    logger.error({ err: new Error("rpc unreachable") }, "poll failed");
    expect(JSON.parse(lines[0]!)).toMatchObject({ err: { type: "Error", message: "rpc unreachable" } });
  });

  it("covers every secret key at every depth up to the limit", () => {
    const paths = redactPaths();
    expect(paths).toHaveLength(SECRET_LOG_KEYS.length * (REDACT_DEPTH + 1));
    expect(paths).toContain("*.*.privateKey");
    expect(paths).toContain('*.*["service-app-id"]');
  });
});

describe("createLogger and URL credentials", () => {
  const URL_WITH_KEYS = "https://user:pass@rpc.example/v3/0123456789abcdefABCDEF?apikey=SECRET";
  const URL_SECRETS = ["pass", "0123456789abcdefABCDEF", "SECRET"];

  /** What a client library throws: the URL in its message, in a field and in a cause. */
  function clientError(): Error {
    const error = new Error(`HTTP request failed.\n\nURL: ${URL_WITH_KEYS}\nStatus: 500`, {
      cause: new Error(`connect to ${URL_WITH_KEYS} refused`),
    });
    return Object.assign(error, { url: URL_WITH_KEYS, request: { url: URL_WITH_KEYS, retries: 2n } });
  }

  it("writes no URL credential from an error's message, stack, fields or cause", () => {
    const { lines, logger } = capture();
    logger.error({ err: clientError() }, "tip read failed");
    logger.error(clientError());
    logger.warn({ err: clientError() });
    logger.warn({ error: clientError(), chain: "ethereum" }, "under another key");
    const text = lines.join("\n");
    for (const secret of URL_SECRETS) expect(text).not.toContain(secret);
    const first = JSON.parse(lines[0]!) as { err: { type: string; message: string; url: string } };
    expect(first.err.type).toBe("Error");
    expect(first.err.message).toContain("URL: https://rpc.example\nStatus: 500");
    expect(first.err.url).toBe("https://rpc.example");
    expect(JSON.parse(lines[1]!)).toMatchObject({
      msg: expect.stringContaining("URL: https://rpc.example\n"),
    });
  });

  it("writes no URL credential from messages, fields at any depth or child bindings", () => {
    const { lines, logger } = capture();
    logger.info(`calling ${URL_WITH_KEYS}`);
    logger.info({ endpoints: [{ url: URL_WITH_KEYS }], deep: { a: { b: { c: URL_WITH_KEYS } } } }, "fields");
    logger.child({ endpoint: URL_WITH_KEYS }).info("bound");
    logger.info("interpolated %s", URL_WITH_KEYS);
    const text = lines.join("\n");
    for (const secret of URL_SECRETS) expect(text).not.toContain(secret);
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(text.match(/https:\/\/rpc\.example\b/g)?.length).toBe(5);
    expect(text).not.toContain("rpc.example/");
  });
});
