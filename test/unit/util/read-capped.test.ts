import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { BodyTooLargeError, readCapped } from "../../../src/util/read-capped.js";

const chunks = (...parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p)));

describe("readCapped", () => {
  it("reads a body up to its cap whole", async () => {
    expect(await readCapped(chunks("ab", "cd", "e"), 5)).toBe("abcde");
  });

  it("refuses a body one byte over its cap, naming the cap", async () => {
    await expect(readCapped(chunks("ab", "cd", "ef"), 5)).rejects.toEqual(new BodyTooLargeError(5));
    await expect(readCapped(chunks("abcdef"), 5)).rejects.toThrow("body is larger than 5 bytes");
  });

  it("passes a stream error on", async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error("socket hang up"));
      },
    });
    await expect(readCapped(failing, 5)).rejects.toThrow("socket hang up");
  });
});
