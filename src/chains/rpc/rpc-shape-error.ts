/**
 * A node's answer that does not have the shape its method promises: told apart from a node's error
 * answer, and never read past, so a lying or broken node yields a clear error rather than a wrong number.
 */
import type { z } from "zod";

export class RpcShapeError extends Error {
  constructor(chain: string, method: string, issues: string) {
    super(`${method} on ${chain} answered in an unexpected shape: ${issues}`);
    this.name = "RpcShapeError";
  }
}

/** The answer as `schema` reads it; throws RpcShapeError naming the first few fields that differ. */
export function checkedAnswer<T extends z.ZodType>(
  chain: string,
  method: string,
  raw: unknown,
  schema: T,
): z.output<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "result"} ${i.message}`);
  throw new RpcShapeError(chain, method, issues.slice(0, 3).join("; "));
}
