/**
 * The deployment files agree with the code they run: the image runs the current Node LTS within the
 * package's engines, probes a route the ops server serves, and every supervisor waits longer for a stop
 * than the solver's own shutdown deadline, so a stop ends in the solver's clean exit, not a kill.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHAIN_FAMILIES } from "../../../src/chains/registry.js";
import { listSettings, solverSchema } from "../../../src/config/schema.js";
import { OPS_PATHS } from "../../../src/ops/server.js";

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");

function defaultShutdownDeadlineMs(): number {
  const settings = new Map(listSettings(solverSchema(CHAIN_FAMILIES)));
  const spec = settings.get("solver.shutdownDeadlineMs");
  if (spec === undefined) throw new Error("solver.shutdownDeadlineMs is not a setting");
  return spec.default as number;
}

describe("deployment files", () => {
  const dockerfile = read("Dockerfile");
  const compose = read("config/deploy/docker-compose.yml");
  const unit = read("config/deploy/htlc-solver.service");
  const engines = (JSON.parse(read("package.json")) as { engines: { node: string } }).engines.node;

  it("build the image on Node 26 and run the compiled build, which the package's engines allow", () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:26-/m);
    expect(dockerfile).toMatch(/RUN npm run build && npm prune --omit=dev/);
    expect(dockerfile).toMatch(/COPY --from=build \/app\/dist \.\/dist/);
    expect(engines).toMatch(/>=(2[0-6])\b/);
  });

  it("probe a route the ops server serves", () => {
    const probed = /HEALTHCHECK[\s\S]*?\/health[a-z/]*/.exec(dockerfile)?.[0].match(/\/health[a-z/]*/)?.[0];
    expect(probed).toBe("/health/ready");
    expect(OPS_PATHS).toContain(probed);
  });

  it("wait longer for a stop than the solver's shutdown deadline", () => {
    const deadlineMs = defaultShutdownDeadlineMs();
    const composeGrace = Number(/stop_grace_period: (\d+)s/.exec(compose)?.[1]) * 1000;
    const unitTimeout = Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1]) * 1000;
    // docker stop's own default, for `docker run` without compose.
    const dockerDefault = 10_000;
    for (const supervisor of [composeGrace, unitTimeout, dockerDefault]) {
      expect(supervisor).toBeGreaterThan(deadlineMs);
    }
  });

  it("run the solver's own command with the journal on persistent storage", () => {
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node \/opt\/htlc-solver\/bin\/solver\.js run --config /m);
    expect(unit).toMatch(/^Environment=SOLVER_JOURNAL_PATH=\/var\/lib\/htlc-solver\//m);
    expect(unit).toMatch(/^StateDirectory=htlc-solver$/m);
    expect(compose).toMatch(/- journal:\/data/);
    expect(dockerfile).toMatch(/SOLVER_JOURNAL_PATH=\/data\//);
  });
});
