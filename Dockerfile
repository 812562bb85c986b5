# The solver daemon. Build: docker build -t htlc-solver .
# Run:   docker run -v $PWD/solver.json:/config/solver.json:ro -v solver-journal:/data \
#          -e SOLVER_EVM_PRIVATE_KEY -e SOLVER_APP_ID -p 127.0.0.1:7071:7071 htlc-solver
# Keys come from the environment or a key file (SOLVER_KEY_FILE, mode 600), never from the profile.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary can be fetched.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# The product alone: the local system (packages/localnet, its chains and litesvm) is a workspace this
# image neither copies nor installs.
RUN npm ci --workspaces=false
COPY tsconfig.json ./
COPY bin ./bin
COPY contracts ./contracts
COPY config ./config
COPY src ./src
# The HTLC artifacts are read at run time (revert reasons); solc is a build-time dependency only.
RUN npm run build:contracts && npm prune --omit=dev --workspaces=false && npm cache clean --force

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    SOLVER_JOURNAL_PATH=/data/journal.sqlite \
    SOLVER_OPS_HOST=0.0.0.0 \
    SOLVER_OPS_PORT=7070 \
    SOLVER_QUOTE_HOST=0.0.0.0 \
    SOLVER_QUOTE_PORT=7071
WORKDIR /app
COPY --from=build /app ./
RUN ln -s /app/bin/solver.js /usr/local/bin/solver \
  && mkdir -p /data /config \
  && chown node:node /data
USER node
# The journal is the solver's memory of every money movement: keep it on a volume.
VOLUME ["/data"]
EXPOSE 7070 7071
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.SOLVER_OPS_PORT + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) stops the solver cleanly.
STOPSIGNAL SIGTERM
ENTRYPOINT ["solver"]
CMD ["run", "--config", "/config/solver.json"]
