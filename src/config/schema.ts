/**
 * The convict schema: every setting with its meaning, default, environment variable and sensitivity.
 * Chains, strategies, prices and per-asset limits are lists and maps that convict cannot describe field
 * by field; the schema holds them as whole values and the zod schemas of `sections/` and `chains.ts` check their inside.
 */
import convict from "convict";
import { DEFAULT_MAX_CLOCK_SKEW_MS } from "../pricing/quote-auth.js";
import { DEFAULT_QUOTE_LIMITS } from "../pricing/quote-guard.js";
import { DEFAULT_KEEP_ALIVE_TIMEOUT_MS, LISTEN_BACKLOG } from "../util/listen.js";
import type { ChainConfigSpec } from "./chain-spec.js";
import { registerFormats, type FormatName } from "./formats.js";

export interface SettingSpec {
  doc: string;
  default: unknown;
  /** A registered format, or Array / Object for the structures checked with zod (`sections/`, `chains.ts`). */
  format: FormatName | ArrayConstructor | ObjectConstructor;
  env?: string;
  sensitive?: boolean;
}

export interface SettingGroup {
  [key: string]: SettingSpec | SettingGroup;
}

export function isSetting(node: SettingSpec | SettingGroup): node is SettingSpec {
  return Object.prototype.hasOwnProperty.call(node, "default");
}

const ms = (doc: string, value: number, env: string): SettingSpec => ({
  doc,
  default: value,
  format: "solver-positive-int",
  env,
});

/** Every setting but the families' private keys (`keySettings`). */
const COMMON_SETTINGS = {
  service: {
    url: {
      doc: "Base URL of the swap service API.",
      default: "",
      format: "solver-http-url",
      env: "SOLVER_SERVICE_URL",
    },
    appId: {
      doc: "Application id sent as the service-app-id header (64 hex).",
      default: "",
      format: "solver-app-id",
      env: "SOLVER_APP_ID",
      sensitive: true,
    },
  },
  solver: {
    id: {
      doc: "Hex id the service knows this solver by (quotes' solver_id).",
      default: "",
      format: "solver-hex-id",
      env: "SOLVER_ID",
    },
    pollIntervalMs: ms("Interval between polls of the service's orders.", 5_000, "SOLVER_POLL_INTERVAL_MS"),
    watchIntervalMs: ms(
      "Interval between reads of each chain's tip while its next block is due; an order whose HTLC changes in a new block is processed at once.",
      1_000,
      "SOLVER_WATCH_INTERVAL_MS",
    ),
    orderConcurrency: {
      doc: "Orders processed at once in a round; their chain reads of one moment go out as one batched call.",
      default: 32,
      format: "solver-positive-int",
      env: "SOLVER_ORDER_CONCURRENCY",
    },
    leaseTtlMs: ms(
      "A solver that has not renewed its journal lease for this long is taken to have stopped.",
      60_000,
      "SOLVER_LEASE_TTL_MS",
    ),
    shutdownDeadlineMs: ms(
      "How long a clean stop may take before the solver exits anyway; keep it below the stop timeout of what runs it.",
      8_000,
      "SOLVER_SHUTDOWN_DEADLINE_MS",
    ),
    keyFile: {
      doc: "JSON file with the private keys (one entry per chain family); must not be readable by group or others.",
      default: "",
      format: "solver-optional-text",
      env: "SOLVER_KEY_FILE",
    },
  },
  chains: { doc: "Chains the solver works on, each with its assets.", default: [], format: Array },
  fixedPrices: {
    doc: "USD price per whole unit, decimal string, per asset id.",
    default: {},
    format: Object,
  },
  prices: {
    refreshMs: ms(
      "Interval of the background refresh of every live price source.",
      5_000,
      "SOLVER_PRICES_REFRESH_MS",
    ),
    exchanges: {
      doc: "Per exchange (binance, coinbase, kraken): baseUrl, timeoutMs, maxAgeMs of its public ticker.",
      default: {},
      format: Object,
    },
    assets: {
      doc: "Live price sources per asset id: sources, minSources, maxDeviationBps, peg.",
      default: {},
      format: Object,
    },
  },
  strategies: { doc: "Pricing strategy per (from, to) asset pair.", default: [], format: Array },
  inventoryCurves: {
    doc: "Per destination asset id: inventory target and the fee curve (ratioBps -> extraBps).",
    default: {},
    format: Object,
  },
  limits: {
    maxOrderAmount: {
      doc: "Per-order ceiling per source asset id, smallest units.",
      default: {},
      format: Object,
    },
    inventoryFloor: {
      doc: "Balance per destination asset id below which the solver stops filling, smallest units.",
      default: {},
      format: Object,
    },
    maxInFlightUsdCents: {
      doc: "Total value filled and not yet redeemed, in USD cents.",
      default: "1000000",
      format: "solver-amount",
      env: "SOLVER_MAX_IN_FLIGHT_USD_CENTS",
    },
  },
  networkFees: {
    minProfitUsdCents: {
      doc:
        "Least profit per order beyond its network fees, USD cents: each quote takes it off besides the " +
        "expected fees, converted to the destination asset at the solver's prices.",
      default: "0",
      format: "solver-amount",
      env: "SOLVER_NETWORK_FEES_MIN_PROFIT_USD_CENTS",
    },
    refundProbabilityBps: {
      doc: "Chance (bps) that the solver refunds its fill because the user never redeems it; quotes charge this share of the refund's fees.",
      default: 500,
      format: "solver-bps",
      env: "SOLVER_NETWORK_FEES_REFUND_PROBABILITY_BPS",
    },
    lossToleranceUsdCents: {
      doc:
        "At fill time, how far (USD cents) an order's network fees of then may exceed what it leaves for " +
        "them; beyond, the fill waits until fees fall or the order's deadline passes.",
      default: "0",
      format: "solver-amount",
      env: "SOLVER_NETWORK_FEES_LOSS_TOLERANCE_USD_CENTS",
    },
    refreshMs: ms(
      "Interval of the background read of every chain's network fees and of the recent batch sizes.",
      15_000,
      "SOLVER_NETWORK_FEES_REFRESH_MS",
    ),
    maxAgeMs: ms(
      "A network fee estimate older than this prices nothing: quotes and fills on its chain wait.",
      120_000,
      "SOLVER_NETWORK_FEES_MAX_AGE_MS",
    ),
    batchWindowMs: ms(
      "Batch sizes are measured over the solver's transactions mined in this window.",
      3_600_000,
      "SOLVER_NETWORK_FEES_BATCH_WINDOW_MS",
    ),
  },
  safety: {
    timelockMarginMs: ms(
      "Remaining source time must exceed the destination timelock by at least this much.",
      3_600_000,
      "SOLVER_TIMELOCK_MARGIN_MS",
    ),
    redeemDeadlineMarginMs: ms(
      "Redeem the source at least this long before it becomes refundable.",
      7_200_000,
      "SOLVER_REDEEM_DEADLINE_MARGIN_MS",
    ),
    priceToleranceBps: {
      doc: "How far (bps) an order's destination amount may exceed a fresh quote at fill time.",
      default: 50,
      format: "solver-bps",
      env: "SOLVER_PRICE_TOLERANCE_BPS",
    },
    urgentRedeemFeeBps: {
      doc:
        "A source redeem about to miss its deadline may pay fees above the chain's ceiling, up to this " +
        "share (bps) of the coin it redeems. 0 keeps ceilings absolute.",
      default: 100,
      format: "solver-bps",
      env: "SOLVER_URGENT_REDEEM_FEE_BPS",
    },
    allowUnenforcedSecretLength: {
      doc:
        "Fill orders whose client holds the secret although the destination accepts a preimage of any " +
        "length (Bitcoin) and the source needs 32 bytes: a longer preimage takes the fill and strands the source.",
      default: false,
      format: "solver-boolean",
      env: "SOLVER_ALLOW_UNENFORCED_SECRET_LENGTH",
    },
  },
  journal: {
    path: {
      doc: "SQLite journal file.",
      default: "./data/journal.sqlite",
      format: "solver-text",
      env: "SOLVER_JOURNAL_PATH",
    },
  },
  ops: {
    host: {
      doc: "Listen address of /health, /metrics, /status.",
      default: "127.0.0.1",
      format: "solver-text",
      env: "SOLVER_OPS_HOST",
    },
    port: {
      doc: "Port of the ops server (0: any free port).",
      default: 7070,
      format: "solver-port",
      env: "SOLVER_OPS_PORT",
    },
  },
  quote: {
    host: {
      doc: "Listen address of the quote endpoint.",
      default: "127.0.0.1",
      format: "solver-text",
      env: "SOLVER_QUOTE_HOST",
    },
    port: {
      doc: "Port of the quote endpoint (0: any free port).",
      default: 7071,
      format: "solver-port",
      env: "SOLVER_QUOTE_PORT",
    },
    listenBacklog: {
      doc: "New connections the kernel may queue for the quote endpoint before it accepts them (capped by net.core.somaxconn). A burst of more new connections than this has the rest wait a SYN retry (1 s, then 3 s), past a service's quote timeout.",
      default: LISTEN_BACKLOG,
      format: "solver-positive-int",
      env: "SOLVER_QUOTE_LISTEN_BACKLOG",
    },
    keepAliveTimeoutMs: {
      doc: "How long the quote endpoint keeps an idle connection open for the next request. Keep it above the idle timeout of the service's connection pool (90 s in common HTTP clients) so the client closes first: a burst then reuses the connections of the last one, and no request is sent on a connection the solver is closing.",
      default: DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
      format: "solver-positive-int",
      env: "SOLVER_QUOTE_KEEP_ALIVE_TIMEOUT_MS",
    },
    auth: {
      secret: {
        doc: "Shared secret the quote endpoint's callers sign each request with (HMAC-SHA256, docs/solver-quote-api.md); at least 32 characters. Empty: unsigned requests are answered.",
        default: "",
        format: "solver-quote-secret",
        env: "SOLVER_QUOTE_AUTH_SECRET",
        sensitive: true,
      },
      maxClockSkewMs: ms(
        "How far a signed quote request's timestamp may be from the solver's clock, either way; a request is answered once within it.",
        DEFAULT_MAX_CLOCK_SKEW_MS,
        "SOLVER_QUOTE_AUTH_MAX_CLOCK_SKEW_MS",
      ),
    },
    limits: {
      maxConcurrent: {
        doc: "Quotes priced at once; a request beyond is answered 429 at once (they wait only on a balance read).",
        default: DEFAULT_QUOTE_LIMITS.maxConcurrent,
        format: "solver-positive-int",
        env: "SOLVER_QUOTE_MAX_CONCURRENT",
      },
      perClientPerSecond: {
        doc: "Quote requests a second each client may make after its burst (a client: the holder of quote.auth.secret, else a remote address); beyond, 429 with Retry-After.",
        default: DEFAULT_QUOTE_LIMITS.perClientPerSecond,
        format: "solver-positive-int",
        env: "SOLVER_QUOTE_PER_CLIENT_PER_SECOND",
      },
      perClientBurst: {
        doc: "Quote requests each client may make at once before perClientPerSecond applies.",
        default: DEFAULT_QUOTE_LIMITS.perClientBurst,
        format: "solver-positive-int",
        env: "SOLVER_QUOTE_PER_CLIENT_BURST",
      },
    },
  },
  log: {
    level: { doc: "Log level.", default: "info", format: "solver-log-level", env: "SOLVER_LOG_LEVEL" },
  },
} satisfies SettingGroup;

/** Each family's private key: environment or key file only, never quoted. */
function keySettings(families: readonly ChainConfigSpec[]): SettingGroup {
  return Object.fromEntries(
    families.map((family) => [
      family.name,
      {
        doc: `${family.key.doc} Environment or key file only.`,
        default: "",
        format: "solver-private-key",
        env: family.key.env,
        sensitive: true,
      } satisfies SettingSpec,
    ]),
  );
}

/** The schema of every setting, the private keys of these families included. */
export function solverSchema(families: readonly ChainConfigSpec[]): SettingGroup {
  return {
    ...COMMON_SETTINGS,
    solver: { ...COMMON_SETTINGS.solver, keys: keySettings(families) },
  };
}

/** Raw settings as convict holds them: scalars typed by format, structures still unchecked. */
export type RawSettings = Record<string, unknown>;

/** A convict instance over the schema, reading the given environment and no command-line arguments. */
export function createSchemaConfig(
  schema: SettingGroup,
  env: NodeJS.ProcessEnv,
): convict.Config<RawSettings> {
  registerFormats();
  return convict<RawSettings>(schema as unknown as convict.Schema<RawSettings>, { env, args: [] });
}

/** Every leaf setting with its dotted key, for docs and validation. */
export function listSettings(group: SettingGroup, prefix = ""): [string, SettingSpec][] {
  return Object.entries(group).flatMap(([key, node]) => {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    return isSetting(node) ? [[path, node] as [string, SettingSpec]] : listSettings(node, path);
  });
}
