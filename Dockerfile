# The solver daemon, compiled, on the current Node LTS (26). Build: docker build -t htlc-solver .
# Run:   docker run -v $PWD/solver.json:/config/solver.json:ro -v solver-journal:/data \
#          -e SOLVER_EVM_PRIVATE_KEY -e SOLVER_APP_ID -p 127.0.0.1:7071:7071 htlc-solver
# or with config/deploy/docker-compose.yml. Keys come from the environment or a key file
# (SOLVER_KEY_FILE, mode 600), never from the profile.

ARG NODE_IMAGE=node:26-trixie-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary can be fetched.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# The product alone: the local system (packages/localnet, its chains and litesvm) is a workspace this
# image neither copies nor installs.
RUN npm ci --workspaces=false
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY contracts ./contracts
COPY config ./config
COPY src ./src
# TypeScript compiled here, the HTLC artifacts (read at run time for revert reasons) beside it; then the
# development dependencies go (TypeScript, solc), and the solver runs on plain Node.
RUN npm run build && npm prune --omit=dev --workspaces=false && npm cache clean --force

FROM ${NODE_IMAGE}
# The commit the image was built from, for `solver --version` (docker build --build-arg GIT_COMMIT=...).
ARG GIT_COMMIT=""
ENV NODE_ENV=production \
    SOLVER_RUN_FROM=dist \
    BUILD_COMMIT=${GIT_COMMIT} \
    SOLVER_JOURNAL_PATH=/data/journal.sqlite \
    SOLVER_OPS_HOST=0.0.0.0 \
    SOLVER_OPS_PORT=7070 \
    SOLVER_QUOTE_HOST=0.0.0.0 \
    SOLVER_QUOTE_PORT=7071
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/bin ./bin
COPY --from=build /app/dist ./dist
COPY --from=build /app/config ./config
RUN ln -s /app/bin/solver.js /usr/local/bin/solver \
  && mkdir -p /data /config \
  && chown node:node /data
USER node
# The journal is the solver's memory of every money movement: keep it on a volume.
VOLUME ["/data"]
EXPOSE 7070 7071
# Ready: every chain answers, live prices are fresh and this instance holds the journal lease.
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.SOLVER_OPS_PORT + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) stops the solver cleanly within solver.shutdownDeadlineMs (8 s by default),
# inside docker's default 10 s stop timeout.
STOPSIGNAL SIGTERM
ENTRYPOINT ["solver"]
CMD ["run", "--config", "/config/solver.json"]
