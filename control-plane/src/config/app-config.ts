import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { insideTestNets } from '../common/address-policy';
import { ENV_VARS, envSchema, type Env, type EnvName } from './env.schema';
import { type GeoIpOverride, geoIpDirProblems, parseGeoIpOverrides } from './geoip-settings';
import { type SolanaSettings, solanaSettings } from './solana-settings';
import { type SweepSettings, describeSweeps, sweepSettings } from './sweep-settings';
import {
  describeWithdrawals,
  type WithdrawalSettings,
  withdrawalSettings,
} from './withdrawal-settings';

/** The validated configuration of one control-plane process. */
export interface AppConfig {
  nodeEnv: Env['NODE_ENV'];
  port: number;
  host: string;
  publicUrl: string;
  /** Unset means: start the embedded PostgreSQL. */
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedPgPort: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  supportEmail: string;
  sessionTtlSeconds: number;
  appSecret: string;
  /** Express "trust proxy": the peers whose X-Forwarded-For is believed; false: none. */
  trustProxy: string[] | false;
  logLevel: Env['LOG_LEVEL'];
  logPretty: boolean;
  portalDist: string;
  secureCookies: boolean;
  /** null: no agent gRPC server (GRPC_PORT=off). */
  grpcPort: number | null;
  /** Who may read /metrics (metrics/): the bearer token on PORT, and a listener of its own. */
  metrics: MetricsSettings;
  grpcHost: string;
  /** Node names and their DNS server (node-dns/); null: no names (SCN_NODE_DOMAIN unset). */
  nodeDns: NodeDnsSettings | null;
  /** Reports a node may send at once (its allowance then refills one per 6 s). */
  agentReportBurst: number;
  demoNodes: number;
  /** Ports of demo node 1 (node i adds i - 1): its VLESS inbound and its core's API. */
  demoNodePort: number;
  demoCoreApiPort: number;
  /** How long the database may keep a request waiting (0: no limit). */
  databaseTimeouts: DatabaseTimeouts;
  /** Shutdown on SIGTERM (lifecycle/drain-coordinator.ts, docs/architecture.md#shutdown-and-drains). */
  drain: { delayMs: number; timeoutMs: number };
  grpcTlsCert: string | undefined;
  grpcTlsKey: string | undefined;
  /** Lower-cased; its servers are premium (admin) servers. */
  platformOperatorEmail: string | undefined;
  /** Subscriptions are free until this instant (end of LAUNCH_PERIOD_ENDS, UTC). */
  launchPeriodEndsAt: Date;
  /** Market page cache lifetime in ms; 0: off. */
  marketPageCacheMs: number;
  /** Add New Server: the most servers without the agent per operator. */
  manualServersPerOperator: number;
  /** What each replica keeps of the feed in memory (docs/architecture.md#subscription-feed). */
  feedCache: {
    subscriptions: number;
    networks: number;
    renderedBytes: number;
  };
  /** Vantage points and the reachability jobs (docs/reachability.md). */
  reachability: {
    probeIntervalMs: number;
    probeBatch: number;
    probeTimeoutMs: number;
    jobIntervalMs: number;
  };
  /** What a manual server's VLESS check asks it to reach (an http(s) URL). */
  manualServerProbeUrl: string;
  /** Documentation-range CIDRs manual servers may use (tests only; empty in production). */
  manualServerAllowedCidrs: string[];
  /** SOL deposits; null: off (their routes answer 503). */
  solana: SolanaSettings | null;
  /** Withdrawals; null: off (the withdraw route answers suspended). */
  withdrawals: WithdrawalSettings | null;
  /** Sweeps of deposit addresses to the treasury; null: off. */
  sweeps: SweepSettings | null;
  /** Tests only (NODE_ENV=test): the file whose offset moves the clock (common/test-clock.ts). */
  testClockFile: string | undefined;
  /** GeoIP's newer CSV files (geoip/); undefined: the packaged ones. */
  geoipDir: string | undefined;
  /** Tests only (NODE_ENV=test): documentation-range CIDRs placed ahead of the GeoIP database. */
  geoipTestOverrides: GeoIpOverride[];
  /** Share-and-earn's check that a post is still up before paying. */
  shareVerify: { enabled: boolean; baseUrl: string | null; timeoutMs: number };
  /** The client apps' APK mirror (downloads/apk-mirror.ts). */
  apkMirror: ApkMirrorSettings;
}

export interface MetricsSettings {
  /** Opens /metrics on PORT; null: it answers 404 there. */
  token: string | null;
  /** null: no listener of its own. */
  port: number | null;
  host: string;
}

export interface NodeDnsSettings {
  /** Lower-case, no trailing dot: nodes are <hostName>.<domain>. */
  domain: string;
  /** Where the authoritative server listens (UDP and TCP); null: not started here. */
  listen: { host: string; port: number } | null;
  /** The apex's NS names. */
  nameServers: string[];
  /** The SOA contact as a DNS name (hostmaster.example.net). */
  hostmaster: string;
}

export interface ApkMirrorSettings {
  enabled: boolean;
  /** Where the APKs' paths are fetched from instead of their upstream host (tests: loopback). */
  baseUrl: string | null;
  /** Plain http is refused (every hop) unless allowed: never when NODE_ENV=production. */
  allowHttp: boolean;
}

export interface DatabaseTimeouts {
  connectMs: number;
  statementMs: number;
  queryMs: number;
  lockMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export const REPO_ROOT = resolve(__dirname, '..', '..', '..');
/**
 * The agent bundle the installer downloads (/downloads/scn-agent.tgz): node-agent's build makes
 * it (`node-agent/scripts/bundle.mjs`), so every built checkout and the Docker image serve it.
 */
export const AGENT_BUNDLE_PATH = join(REPO_ROOT, 'node-agent', 'dist-bundle', 'scn-agent.tgz');

/** Reads and validates the environment. A bad value throws a ConfigError naming the variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const raw: Partial<Record<EnvName, string>> = {};
  for (const name of Object.keys(ENV_VARS) as EnvName[]) {
    const value = source[name];
    if (value !== undefined && value.trim() !== '') raw[name] = value.trim();
  }

  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? 'environment');
        const value = ENV_VARS[name as EnvName]?.sensitive
          ? '(hidden)'
          : JSON.stringify(raw[name as EnvName]);
        return `${name}=${value}: ${issue.message}`;
      }),
    );
  }
  const env = parsed.data;
  const dataDir = resolve(env.DATA_DIR ?? join(REPO_ROOT, '.data'));

  if (Boolean(env.GRPC_TLS_CERT) !== Boolean(env.GRPC_TLS_KEY)) {
    throw new ConfigError([
      'GRPC_TLS_CERT and GRPC_TLS_KEY: set both (TLS) or neither (plaintext)',
    ]);
  }
  const solana = solanaSettings(env, raw.SOLANA_CLUSTER !== undefined);
  const withdrawals = withdrawalSettings(env, solana.settings);
  const sweeps = sweepSettings(env, solana.settings);
  const crossProblems = [
    ...timeoutProblems(env),
    ...demoPortProblems(env),
    ...solana.problems,
    ...withdrawals.problems,
    ...sweeps.problems,
  ];
  if (crossProblems.length > 0) throw new ConfigError(crossProblems);
  if (env.NODE_ENV === 'production' && !env.APP_SECRET) {
    throw new ConfigError([
      'APP_SECRET: is required when NODE_ENV=production (at least 32 characters)',
    ]);
  }

  const allowedCidrs = env.MANUAL_TEST_CIDRS.split(',')
    .map((cidr) => cidr.trim())
    .filter(Boolean);
  const outside = allowedCidrs.filter((cidr) => !insideTestNets(cidr));
  if (outside.length > 0) {
    throw new ConfigError([
      `MANUAL_TEST_CIDRS: ${outside.join(', ')} is not a CIDR inside 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24 or 2001:db8::/32`,
    ]);
  }
  if (env.NODE_ENV === 'production' && allowedCidrs.length > 0) {
    throw new ConfigError([
      'MANUAL_TEST_CIDRS: is for tests only and must be empty when NODE_ENV=production',
    ]);
  }

  // A DNS server for no zone would only ever answer REFUSED: a mistake worth stopping for.
  if (env.SCN_DNS_LISTEN && !env.SCN_NODE_DOMAIN) {
    throw new ConfigError(['SCN_DNS_LISTEN: needs SCN_NODE_DOMAIN (the zone it answers for)']);
  }

  // A clock anyone with the file can move has no place outside tests: refused at start-up.
  if (env.TEST_CLOCK_FILE && env.NODE_ENV !== 'test') {
    throw new ConfigError([
      `TEST_CLOCK_FILE: is for tests only and refused unless NODE_ENV=test (NODE_ENV=${env.NODE_ENV})`,
    ]);
  }

  const geoipOverrides = parseGeoIpOverrides(env.GEOIP_TEST_OVERRIDES);
  const geoipProblems = [...geoipOverrides.problems, ...geoIpDirProblems(env.GEOIP_DIR)];
  if (geoipProblems.length > 0) throw new ConfigError(geoipProblems);
  // Placing addresses at will would let a test setting misplace real clients: tests only.
  if (env.GEOIP_TEST_OVERRIDES && env.NODE_ENV !== 'test') {
    throw new ConfigError([
      `GEOIP_TEST_OVERRIDES: is for tests only and refused unless NODE_ENV=test (NODE_ENV=${env.NODE_ENV})`,
    ]);
  }

  // Without PUBLIC_URL the portal is where this process listens (links, the install command).
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  return {
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    publicUrl,
    databaseUrl: env.DATABASE_URL,
    dataDir,
    embeddedPgPort: env.EMBEDDED_PG_PORT,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    supportEmail: env.SUPPORT_EMAIL,
    sessionTtlSeconds: env.SESSION_TTL,
    appSecret: env.APP_SECRET ?? localSecret(dataDir),
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    logPretty: env.LOG_PRETTY ?? (env.NODE_ENV === 'development' && Boolean(process.stdout.isTTY)),
    portalDist: resolve(env.PORTAL_DIST ?? join(REPO_ROOT, 'portal', 'dist')),
    secureCookies: publicUrl.startsWith('https://'),
    grpcPort: env.GRPC_PORT,
    metrics: {
      token: env.METRICS_TOKEN ?? null,
      port: env.METRICS_PORT ?? null,
      host: env.METRICS_HOST,
    },
    grpcHost: env.GRPC_HOST,
    nodeDns: env.SCN_NODE_DOMAIN
      ? {
          domain: env.SCN_NODE_DOMAIN,
          listen: env.SCN_DNS_LISTEN ?? null,
          nameServers: env.SCN_DNS_NS?.length ? env.SCN_DNS_NS : [new URL(publicUrl).hostname],
          hostmaster: (env.SCN_DNS_HOSTMASTER ?? `hostmaster@${env.SCN_NODE_DOMAIN}`)
            .toLowerCase()
            .replace('@', '.'),
        }
      : null,
    agentReportBurst: env.AGENT_REPORT_BURST,
    demoNodes: env.DEMO_NODES,
    demoNodePort: env.DEMO_NODE_PORT,
    demoCoreApiPort: env.DEMO_CORE_API_PORT,
    databaseTimeouts: {
      connectMs: env.DB_CONNECT_TIMEOUT_MS,
      statementMs: env.DB_STATEMENT_TIMEOUT_MS,
      queryMs: env.DB_QUERY_TIMEOUT_MS,
      lockMs: env.DB_LOCK_TIMEOUT_MS,
    },
    drain: {
      // A balancer needs a few probe intervals to notice; a developer's Ctrl-C should not wait.
      delayMs: env.DRAIN_DELAY_MS ?? (env.NODE_ENV === 'production' ? 5_000 : 0),
      timeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    },
    grpcTlsCert: env.GRPC_TLS_CERT,
    grpcTlsKey: env.GRPC_TLS_KEY,
    platformOperatorEmail: env.PLATFORM_OPERATOR_EMAIL?.toLowerCase(),
    launchPeriodEndsAt: new Date(`${env.LAUNCH_PERIOD_ENDS}T23:59:59.999Z`),
    marketPageCacheMs: env.MARKET_PAGE_CACHE_MS,
    manualServersPerOperator: env.MANUAL_SERVER_LIMIT,
    feedCache: {
      subscriptions: env.FEED_CACHE_SUBSCRIPTIONS,
      networks: env.FEED_CACHE_NETWORKS,
      renderedBytes: env.FEED_CACHE_RENDERED_MB * 1024 * 1024,
    },
    reachability: {
      probeIntervalMs: env.REACHABILITY_PROBE_INTERVAL_MS,
      probeBatch: env.REACHABILITY_PROBE_BATCH,
      probeTimeoutMs: env.REACHABILITY_PROBE_TIMEOUT_MS,
      jobIntervalMs: env.REACHABILITY_JOB_INTERVAL_MS,
    },
    manualServerProbeUrl: env.MANUAL_PROBE_URL ?? `${publicUrl}/healthz`,
    manualServerAllowedCidrs: allowedCidrs,
    solana: solana.settings,
    withdrawals: withdrawals.settings,
    sweeps: sweeps.settings,
    testClockFile: env.TEST_CLOCK_FILE ? resolve(env.TEST_CLOCK_FILE) : undefined,
    geoipDir: env.GEOIP_DIR ? resolve(env.GEOIP_DIR) : undefined,
    geoipTestOverrides: geoipOverrides.overrides,
    shareVerify: {
      enabled: env.SHARE_VERIFY_FETCH ?? env.NODE_ENV === 'production',
      baseUrl: env.SHARE_VERIFY_BASE_URL ?? null,
      timeoutMs: 5_000,
    },
    apkMirror: {
      enabled: env.CLIENT_APK_MIRROR ?? env.NODE_ENV === 'production',
      baseUrl: env.CLIENT_APK_MIRROR_BASE_URL ?? null,
      allowHttp: env.NODE_ENV !== 'production',
    },
  };
}

/** The non-sensitive configuration, for the start-up log line. */
export function describeConfig(config: AppConfig): Record<string, unknown> {
  return {
    nodeEnv: config.nodeEnv,
    port: config.port,
    publicUrl: config.publicUrl,
    database: config.databaseUrl ? 'DATABASE_URL' : `embedded (port ${config.embeddedPgPort})`,
    mail: config.smtpUrl ? 'SMTP_URL' : `outbox ${join(config.dataDir, 'outbox')}`,
    supportEmail: config.supportEmail,
    sessionTtlSeconds: config.sessionTtlSeconds,
    portalDist: config.portalDist,
    metrics: [
      config.metrics.token
        ? 'GET /metrics with METRICS_TOKEN'
        : 'GET /metrics off on PORT (METRICS_TOKEN)',
      ...(config.metrics.port === null
        ? []
        : [`own listener ${config.metrics.host}:${config.metrics.port}`]),
    ].join('; '),
    deposits: config.solana
      ? `${config.solana.cluster} ${config.solana.depositAddress} (${config.solana.commitment})`
      : 'off',
    // Never the seed itself: only whether it is set and what the addresses accept.
    depositAddresses: config.solana?.depositAddresses
      ? `on (SOL${config.solana.depositAddresses.usdcMint ? ', USDC' : ''}${config.solana.depositAddresses.usdtMint ? ', USDT' : ''})`
      : 'off (SOLANA_DEPOSIT_SEED)',
    withdrawals: describeWithdrawals(config.withdrawals),
    sweeps: describeSweeps(config.sweeps),
    sharePostCheck: config.shareVerify.enabled
      ? 'on'
      : 'off (SHARE_VERIFY_FETCH): a shared post deleted within the 24-hour hold is still paid',
    apkMirror: config.apkMirror.enabled
      ? `on (${join(config.dataDir, 'client-apps')})`
      : 'off (CLIENT_APK_MIRROR): the Android APKs are linked on GitHub',
    nodeNames: config.nodeDns
      ? `*.${config.nodeDns.domain}, DNS server ${config.nodeDns.listen ? `${config.nodeDns.listen.host}:${config.nodeDns.listen.port}` : 'off here (SCN_DNS_LISTEN)'}`
      : "off (SCN_NODE_DOMAIN): agent nodes get no name under the platform's domain",
    geoip: config.geoipDir ?? 'packaged (@ip-location-db)',
    drain: `readiness 503 for ${config.drain.delayMs} ms, then ${config.drain.timeoutMs} ms to finish`,
    ...(config.testClockFile ? { testClock: config.testClockFile } : {}),
    ...(config.geoipTestOverrides.length > 0
      ? { geoipTestOverrides: config.geoipTestOverrides.map((o) => o.cidr) }
      : {}),
  };
}

/**
 * The client-side query timeout is the last resort for a database that does not answer; the
 * server's own statement_timeout must fire first, since it cancels cleanly and keeps the
 * connection usable. A lock wait is part of a statement, so a longer lock_timeout never fires.
 */
function timeoutProblems(env: Env): string[] {
  const { DB_STATEMENT_TIMEOUT_MS: statement, DB_QUERY_TIMEOUT_MS: query } = env;
  const problems: string[] = [];
  if (query !== 0 && (statement === 0 || query <= statement)) {
    problems.push(
      `DB_QUERY_TIMEOUT_MS=${query}: must exceed DB_STATEMENT_TIMEOUT_MS (${statement}${statement === 0 ? ', off' : ''}) or be 0 (off)`,
    );
  }
  if (statement !== 0 && env.DB_LOCK_TIMEOUT_MS > statement) {
    problems.push(
      `DB_LOCK_TIMEOUT_MS=${env.DB_LOCK_TIMEOUT_MS}: must not exceed DB_STATEMENT_TIMEOUT_MS (${statement})`,
    );
  }
  return problems;
}

/** Demo node i listens on DEMO_NODE_PORT + i - 1 and DEMO_CORE_API_PORT + i - 1: no clashes. */
function demoPortProblems(env: Env): string[] {
  const count = env.DEMO_NODES;
  if (count === 0) return []; // no demo nodes: the ports are not used
  const ranges = [
    { name: 'DEMO_NODE_PORT', first: env.DEMO_NODE_PORT },
    { name: 'DEMO_CORE_API_PORT', first: env.DEMO_CORE_API_PORT },
  ].map((r) => ({ ...r, last: r.first + count - 1 }));
  const problems: string[] = [];
  for (const r of ranges) {
    if (r.last > 65535) {
      problems.push(
        `${r.name}=${r.first}: ${count} demo nodes need ports up to ${r.last} (max 65535)`,
      );
    }
  }
  const [vless, api] = ranges as [(typeof ranges)[0], (typeof ranges)[0]];
  if (vless.first <= api.last && api.first <= vless.last) {
    problems.push(
      `DEMO_NODE_PORT=${vless.first} and DEMO_CORE_API_PORT=${api.first}: the ${count}-port ranges overlap`,
    );
  }
  const taken: Array<[string, number | null]> = [
    ['PORT', env.PORT],
    ['GRPC_PORT', env.GRPC_PORT],
    ['EMBEDDED_PG_PORT', env.DATABASE_URL ? null : env.EMBEDDED_PG_PORT],
  ];
  for (const r of ranges) {
    for (const [name, used] of taken) {
      if (used !== null && used !== 0 && used >= r.first && used <= r.last) {
        problems.push(
          `${r.name}=${r.first}: demo node ports ${r.first}-${r.last} include ${name} (${used})`,
        );
      }
    }
  }
  return problems;
}

/** Development convenience: one random secret per data folder, kept between runs (0600). */
function localSecret(dataDir: string): string {
  const file = join(dataDir, 'app-secret');
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length >= 32) return secret;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
