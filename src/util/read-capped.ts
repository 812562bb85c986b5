/**
 * The whole of a body up to a size; a larger one is refused, not buffered, since the peer (a client of a
 * local node, or a solver answering the service) chooses its size.
 */
import type { Readable } from "node:stream";

export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`body is larger than ${maxBytes} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/** Rejects with BodyTooLargeError once more than `maxBytes` arrived; the stream is left to the caller. */
export function readCapped(stream: Readable, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) reject(new BodyTooLargeError(maxBytes));
      else chunks.push(chunk);
    });
    stream.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    stream.on("error", reject);
  });
}
