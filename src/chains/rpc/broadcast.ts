/**
 * Sends one signed transaction through every target endpoint at once. A public endpoint may accept a
 * transaction and never pass it on; sending through all of them means one such endpoint cannot lose it.
 *
 * - Each endpoint gets a few attempts against faults (a rate limit is waited out when it is short).
 * - The broadcast succeeds when any endpoint accepted. Once one has, the others get `graceMs` more to
 *   finish (their sends carry on in the background after that, and are still recorded).
 * - When none accepted, the nodes' own answers win over faults, and among answers the ones
 *   `preferAnswer` picks (e.g. "already known", which the caller counts as sent) win over the rest.
 */
import { EndpointFault, RpcUnavailableError } from "./errors.js";

export interface BroadcastOptions {
  /** Among rejections, the one to report when no endpoint accepted (e.g. "already known"). */
  preferAnswer?: (error: unknown) => boolean;
}

export interface BroadcastPlan<E extends { label: string }, T> extends BroadcastOptions {
  chain: string;
  what: string;
  targets: readonly E[];
  /** One recorded attempt on one endpoint. */
  send: (endpoint: E) => Promise<T>;
  coolingMs: (endpoint: E) => number;
  attempts: number;
  /** Real time, once one endpoint accepted. */
  graceMs: number;
  /** Waits out cool-downs. */
  sleep: (ms: number) => Promise<void>;
}

type Outcome<T> =
  | { kind: "accepted"; value: T }
  | { kind: "answered"; error: unknown }
  | { kind: "faulted"; faults: EndpointFault[] };

async function sendWithRetries<E extends { label: string }, T>(
  plan: BroadcastPlan<E, T>,
  endpoint: E,
): Promise<Outcome<T>> {
  const faults: EndpointFault[] = [];
  for (let i = 0; i < plan.attempts; i++) {
    const wait = plan.coolingMs(endpoint);
    // A long cool-down is not waited for here: the other endpoints carry the transaction meanwhile.
    if (wait > plan.graceMs) break;
    if (wait > 0) await plan.sleep(wait);
    try {
      return { kind: "accepted", value: await plan.send(endpoint) };
    } catch (error) {
      if (!(error instanceof EndpointFault)) return { kind: "answered", error };
      faults.push(error);
    }
  }
  return { kind: "faulted", faults };
}

function verdict<T>(
  plan: Pick<BroadcastPlan<{ label: string }, T>, "chain" | "what" | "preferAnswer">,
  outcomes: readonly Outcome<T>[],
): T {
  for (const o of outcomes) if (o.kind === "accepted") return o.value;
  const answers = outcomes.flatMap((o) => (o.kind === "answered" ? [o.error] : []));
  const preferred = plan.preferAnswer === undefined ? undefined : answers.find(plan.preferAnswer);
  if (preferred !== undefined) throw preferred;
  if (answers.length > 0) throw answers[0];
  const faults = outcomes.flatMap((o) => (o.kind === "faulted" ? o.faults : []));
  throw new RpcUnavailableError(plan.chain, plan.what, faults, []);
}

export function broadcastToAll<E extends { label: string }, T>(plan: BroadcastPlan<E, T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const outcomes: Outcome<T>[] = [];
    let pending = plan.targets.length;
    let done = false;
    let grace: NodeJS.Timeout | undefined;
    if (pending === 0) reject(new RpcUnavailableError(plan.chain, plan.what, [], ["no endpoint to send to"]));
    const finish = () => {
      if (done) return;
      done = true;
      try {
        resolve(verdict(plan, outcomes));
      } catch (error) {
        reject(error);
      }
    };
    for (const endpoint of plan.targets) {
      void sendWithRetries(plan, endpoint).then((outcome) => {
        outcomes.push(outcome);
        pending--;
        if (pending === 0) {
          clearTimeout(grace);
          finish();
        } else if (outcome.kind === "accepted" && grace === undefined) {
          grace = setTimeout(finish, plan.graceMs);
        }
      });
    }
  });
}
