import { DEFAULT_SSL_PER_SOL, parseSslAmount } from '@scn/proto';
import { z } from 'zod';
import { parseDuration } from './duration';
import { parseTrustProxy } from './trust-proxy';

const port = z.coerce
  .number({ error: 'must be a number' })
  .int('must be an integer')
  .min(1, 'must be between 1 and 65535')
  .max(65535, 'must be between 1 and 65535');

const url = (protocols: readonly string[]) =>
  z
    .string()
    .url({ message: 'must be a URL', abort: true })
    .refine((value) => protocols.some((p) => value.startsWith(`${p}://`)), {
      message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    });

const mailbox = z
  .string()
  .regex(
    /^([^<>]*<)?[^\s@<>]+@[^\s@<>]+(>)?$/,
    'must be an e-mail address, e.g. "SCN <no-reply@example.com>"',
  );

const duration = (min: number, max: number) =>
  z.string().transform((value, ctx) => {
    const seconds = parseDuration(value);
    if (seconds === null) {
      ctx.addIssue({ code: 'custom', message: 'must be a duration like 3600, 30m, 12h or 7d' });
      return z.NEVER;
    }
    if (seconds < min || seconds > max) {
      ctx.addIssue({ code: 'custom', message: `must be between ${min}s and ${max}s` });
      return z.NEVER;
    }
    return seconds;
  });

const milliseconds = (min: number, max: number, off: boolean) =>
  z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int('must be an integer (milliseconds)')
    .refine((n) => (off && n === 0) || (n >= min && n <= max), {
      message: `must be ${off ? '0 (off) or ' : ''}between ${min} and ${max} (milliseconds)`,
    });

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An amount of SSL (a decimal with at most 6 decimals, above 0), as micro-SSL. */
const sslSetting = z.string().transform((value, ctx) => {
  const micro = parseSslAmount(value.trim());
  if (micro === null || micro <= 0n) {
    ctx.addIssue({ code: 'custom', message: 'must be an amount of SSL above 0 (e.g. 100 or 2.5)' });
    return z.NEVER;
  }
  return micro;
});

/**
 * Every environment variable the control plane reads, with its default and meaning. The README's
 * configuration table is this list. `sensitive` values are never logged.
 */
export const ENV_VARS = {
  NODE_ENV: {
    schema: z.enum(['development', 'production', 'test']).default('development'),
    doc: 'development, production or test',
    sensitive: false,
  },
  PORT: {
    schema: port.default(5050),
    doc: 'HTTP port of the REST API, portal and realtime gateway',
    sensitive: false,
  },
  HOST: {
    schema: z.string().min(1).default('0.0.0.0'),
    doc: 'Interface to listen on',
    sensitive: false,
  },
  PUBLIC_URL: {
    schema: url(['http', 'https']).optional(),
    doc: 'Public origin of the portal (default: http://localhost:<PORT>); links in e-mails and the install command use it; https turns on Secure cookies and HSTS',
    sensitive: false,
  },
  DATABASE_URL: {
    schema: url(['postgres', 'postgresql']).optional(),
    doc: 'PostgreSQL connection string; when unset an embedded PostgreSQL is started with its data under DATA_DIR/postgres',
    sensitive: true,
  },
  DATA_DIR: {
    schema: z.string().min(1).optional(),
    doc: 'Local state: embedded database, mail outbox, generated secret (default: <repo>/.data)',
    sensitive: false,
  },
  EMBEDDED_PG_PORT: {
    schema: port.default(54329),
    doc: 'Port of the embedded PostgreSQL (only without DATABASE_URL)',
    sensitive: false,
  },
  DB_CONNECT_TIMEOUT_MS: {
    schema: milliseconds(100, 120_000, false).default(5000),
    doc: 'How long a request waits for a database connection (a new one, or a free one of the pool) before it is answered 503',
    sensitive: false,
  },
  DB_STATEMENT_TIMEOUT_MS: {
    schema: milliseconds(100, 3_600_000, true).default(8_000),
    doc: "PostgreSQL statement_timeout of the control plane's connections: the server cancels a longer statement (answered 503); 0: off. Migrations are not limited",
    sensitive: false,
  },
  DB_QUERY_TIMEOUT_MS: {
    schema: milliseconds(100, 3_600_000, true).default(10_000),
    doc: 'Client-side limit of one query, for a database that does not answer at all (frozen host, lost network): answered 503; 0: off. Must exceed DB_STATEMENT_TIMEOUT_MS',
    sensitive: false,
  },
  DB_LOCK_TIMEOUT_MS: {
    schema: milliseconds(100, 3_600_000, true).default(5_000),
    doc: 'PostgreSQL lock_timeout: a statement waiting longer for a row or table lock is cancelled (answered 503); 0: off',
    sensitive: false,
  },
  DRAIN_DELAY_MS: {
    schema: milliseconds(1, 120_000, true).optional(),
    doc: 'On SIGTERM (or SIGINT): how long /health/ready answers 503 while requests are still served (each with Connection: close), so a load balancer moves away before the listener closes; 0: close at once (default 0, production: 5000)',
    sensitive: false,
  },
  SHUTDOWN_TIMEOUT_MS: {
    schema: milliseconds(100, 600_000, false).default(10_000),
    doc: 'After the drain delay: how long requests, agent calls and connections in hand may take to finish before they are cut; the process exits within DRAIN_DELAY_MS + SHUTDOWN_TIMEOUT_MS + 3 s',
    sensitive: false,
  },
  SMTP_URL: {
    schema: url(['smtp', 'smtps']).optional(),
    doc: 'SMTP server for outgoing mail (smtp://user:pass@host:587); when unset mail is written to DATA_DIR/outbox and printed to the terminal',
    sensitive: true,
  },
  MAIL_FROM: {
    schema: mailbox.default('SCN <no-reply@scn.network>'),
    doc: 'Sender of outgoing mail',
    sensitive: false,
  },
  SUPPORT_EMAIL: {
    schema: z.string().email('must be an e-mail address').default('support@scn.network'),
    doc: 'Support mailbox: shown in the portal, receives contact-form messages',
    sensitive: false,
  },
  SESSION_TTL: {
    schema: duration(300, 90 * 86400).default(7 * 86400),
    doc: 'Lifetime of a login session (seconds, or 30m, 12h, 7d)',
    sensitive: false,
  },
  APP_SECRET: {
    schema: z.string().min(32, 'must be at least 32 characters').optional(),
    doc: 'Server secret that keys the hashes of e-mailed codes; required in production, generated into DATA_DIR/app-secret otherwise',
    sensitive: true,
  },
  TRUST_PROXY: {
    schema: z
      .string()
      .transform((value, ctx) => {
        const parsed = parseTrustProxy(value);
        if ('error' in parsed) {
          ctx.addIssue({ code: 'custom', message: parsed.error });
          return z.NEVER;
        }
        return parsed.trusted;
      })
      .default(['loopback']),
    doc: 'The reverse proxies whose X-Forwarded-For is believed: a comma-separated list of addresses and CIDRs (and the names loopback, linklocal, uniquelocal), or false for none; true and hop counts are refused (any client could name its own address)',
    sensitive: false,
  },
  LOG_LEVEL: {
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    doc: 'Log level of the structured (pino) logs',
    sensitive: false,
  },
  PORTAL_DIST: {
    schema: z.string().min(1).optional(),
    doc: 'Folder of the built portal (default: portal/dist of the repo)',
    sensitive: false,
  },
  METRICS_TOKEN: {
    schema: z
      .string()
      .min(24, 'must be at least 24 characters')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
      .optional(),
    doc: 'Bearer token that opens GET /metrics (Prometheus format) on PORT; unset: /metrics answers 404 there (docs/architecture.md#metrics)',
    sensitive: true,
  },
  METRICS_PORT: {
    schema: z.coerce
      .number({ error: 'must be a port (0-65535)' })
      .int('must be a port (0-65535)')
      .min(0, 'must be a port (0-65535)')
      .max(65535, 'must be a port (0-65535)')
      .optional(),
    doc: 'A port of its own for GET /metrics on METRICS_HOST, without a token unless METRICS_TOKEN is set (0: any free port); unset: no such listener',
    sensitive: false,
  },
  METRICS_HOST: {
    schema: z.string().min(1).default('127.0.0.1'),
    doc: "Interface of METRICS_PORT's listener (loopback by default; 0.0.0.0 only on a private network a scraper shares, e.g. a compose network)",
    sensitive: false,
  },
  GRPC_PORT: {
    schema: z
      .string()
      .transform((value, ctx) => {
        if (value === 'off') return null;
        const n = Number(value);
        if (!/^\d+$/.test(value) || n > 65535) {
          ctx.addIssue({ code: 'custom', message: 'must be a port (0-65535) or off' });
          return z.NEVER;
        }
        return n;
      })
      .default(5051),
    doc: 'Port of the agent gRPC server (0: any free port; off: no gRPC server)',
    sensitive: false,
  },
  DEMO_NODES: {
    schema: z.coerce
      .number({ error: 'must be a number' })
      .int('must be an integer')
      .min(0, 'must be 0-10')
      .max(10, 'must be 0-10')
      .default(0),
    doc: 'Enrollment tokens for this many demo agents, written to DATA_DIR/demo/enrollment.json at start (npm start sets 3)',
    sensitive: false,
  },
  DEMO_NODE_PORT: {
    schema: port.default(20_001),
    doc: 'Loopback VLESS port of the first demo node (demo node i uses DEMO_NODE_PORT + i - 1); set it to run two instances on one machine',
    sensitive: false,
  },
  DEMO_CORE_API_PORT: {
    schema: port.default(21_001),
    doc: 'Loopback core API port of the first demo node (demo node i uses DEMO_CORE_API_PORT + i - 1)',
    sensitive: false,
  },
  GRPC_HOST: {
    schema: z.string().min(1).default('0.0.0.0'),
    doc: 'Interface of the agent gRPC server',
    sensitive: false,
  },
  GRPC_TLS_CERT: {
    schema: z.string().min(1).optional(),
    doc: 'PEM certificate chain for the agent gRPC server (with GRPC_TLS_KEY: TLS; without: plaintext)',
    sensitive: false,
  },
  GRPC_TLS_KEY: {
    schema: z.string().min(1).optional(),
    doc: 'PEM private key for the agent gRPC server',
    sensitive: true,
  },
  SCN_NODE_DOMAIN: {
    schema: z
      .string()
      .trim()
      .toLowerCase()
      .transform((value) => value.replace(/\.$/, ''))
      .refine(
        (value) =>
          value === '' ||
          (value.length <= 200 &&
            value.includes('.') &&
            value.split('.').every((l) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(l))),
        'must be a DNS name like nodes.example.net (or empty: no node names)',
      )
      .optional(),
    doc: "The platform's domain for node names: each agent node gets <name>.<SCN_NODE_DOMAIN> (answered by the DNS server of SCN_DNS_LISTEN) to obtain a publicly trusted certificate for; unset or empty: no names",
    sensitive: false,
  },
  SCN_DNS_LISTEN: {
    schema: z
      .string()
      .transform((value, ctx) => {
        const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(value.trim());
        const portNumber = Number(match?.[3]);
        if (!match || portNumber > 65535) {
          ctx.addIssue({ code: 'custom', message: 'must be address:port, e.g. 0.0.0.0:53' });
          return z.NEVER;
        }
        return { host: match[1] ?? match[2]!, port: portNumber };
      })
      .optional(),
    doc: 'Address and port (UDP and TCP) of the authoritative DNS server for SCN_NODE_DOMAIN, e.g. 0.0.0.0:53 (port 0: any free port); unset: not started',
    sensitive: false,
  },
  SCN_DNS_NS: {
    schema: z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((name) => name.trim().toLowerCase().replace(/\.$/, ''))
          .filter(Boolean),
      )
      .optional(),
    doc: 'Comma-separated names of the name servers the parent zone delegates SCN_NODE_DOMAIN to (NS records at the apex; default: the host of PUBLIC_URL)',
    sensitive: false,
  },
  SCN_DNS_HOSTMASTER: {
    schema: z.string().email('must be an e-mail address').optional(),
    doc: 'Contact of the zone in its SOA record (default: hostmaster@<SCN_NODE_DOMAIN>)',
    sensitive: false,
  },
  AGENT_REPORT_BURST: {
    schema: z.coerce
      .number({ error: 'must be a number' })
      .int('must be an integer')
      .min(1, 'must be between 1 and 1000000')
      .max(1_000_000, 'must be between 1 and 1000000')
      .default(20),
    doc: 'Reports one node may send at once before its allowance of one per 6 s holds it back (agents report every 60 s; raise it only for load tests such as bench/ingest)',
    sensitive: false,
  },
  PLATFORM_OPERATOR_EMAIL: {
    schema: mailbox.optional(),
    doc: "E-mail of the platform's own operator account: its servers are the premium (admin) servers, and their subscription revenue goes to the platform, not to an operator reward",
    sensitive: false,
  },
  LAUNCH_PERIOD_ENDS: {
    schema: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2025-12-31')
      .refine((v) => !Number.isNaN(Date.parse(`${v}T23:59:59.999Z`)), 'must be a real date')
      .default('2025-12-31'),
    doc: 'Last day (UTC) of the launch period, during which subscriptions are free (spec 01 §1)',
    sensitive: false,
  },
  MARKET_PAGE_CACHE_MS: {
    schema: z.coerce
      .number({ error: 'must be a number' })
      .int('must be an integer')
      .min(0, 'must be between 0 and 60000')
      .max(60_000, 'must be between 0 and 60000')
      .default(1000),
    doc: 'How long a market page (GET /data/servers) may be reused while no server was added, removed, filled or disabled; ping, uptime and reliability may be that late (0: off)',
    sensitive: false,
  },
  REACHABILITY_PROBE_INTERVAL_MS: {
    schema: z.coerce
      .number({ error: 'must be a number' })
      .int('must be an integer')
      .min(1000, 'must be between 1000 and 3600000')
      .max(3_600_000, 'must be between 1000 and 3600000')
      .default(60_000),
    doc: 'How often a vantage point (`scn-agent probe run`) asks for endpoints and tests them (docs/reachability.md)',
    sensitive: false,
  },
  REACHABILITY_PROBE_BATCH: {
    schema: z.coerce
      .number({ error: 'must be a number' })
      .int('must be an integer')
      .min(1, 'must be between 1 and 500')
      .max(500, 'must be between 1 and 500')
      .default(60),
    doc: 'The most endpoints one vantage point tests per round (least recently measured from its network first)',
    sensitive: false,
  },
  REACHABILITY_PROBE_TIMEOUT_MS: {
    schema: z.coerce
      .number({ error: 'must be a number' })
      .int('must be an integer')
      .min(1000, 'must be between 1000 and 60000')
      .max(60_000, 'must be between 1000 and 60000')
      .default(10_000),
    doc: "A vantage point's time limit for one endpoint's test (connect, handshake, VLESS answer)",
    sensitive: false,
  },
  REACHABILITY_JOB_INTERVAL_MS: {
    schema: z.coerce
      .number({ error: 'must be a number' })
      .int('must be an integer')
      .min(1000, 'must be between 1000 and 3600000')
      .max(3_600_000, 'must be between 1000 and 3600000')
      .default(60_000),
    doc: 'How often blocked servers are replaced in subscriptions, automatic port regenerations run and old observations are pruned',
    sensitive: false,
  },
  FEED_CACHE_SUBSCRIPTIONS: {
    schema: z.coerce
      .number({ error: 'must be a number' })
      .int('must be an integer')
      .min(1, 'must be between 1 and 10000000')
      .max(10_000_000, 'must be between 1 and 10000000')
      .default(50_000),
    doc: 'Subscriptions whose feed (/sub/<secret>) each replica answers from memory, most recently fetched kept (about 4 KB each)',
    sensitive: false,
  },
  FEED_CACHE_NETWORKS: {
    schema: z.coerce
      .number({ error: 'must be a number' })
      .int('must be an integer')
      .min(1, 'must be between 1 and 10000000')
      .max(10_000_000, 'must be between 1 and 10000000')
      .default(50_000),
    doc: "Feeds' server lists as seen from a requester's network (reachability) kept in memory, one per subscription and network",
    sensitive: false,
  },
  FEED_CACHE_RENDERED_MB: {
    schema: z.coerce
      .number({ error: 'must be a number' })
      .int('must be an integer')
      .min(1, 'must be between 1 and 4096')
      .max(4096, 'must be between 1 and 4096')
      .default(64),
    doc: "Memory each replica keeps for feeds' rendered answers (every format, the page), in MiB",
    sensitive: false,
  },
  MANUAL_SERVER_LIMIT: {
    schema: z.coerce
      .number({ error: 'must be a number' })
      .int('must be an integer')
      .min(0, 'must be between 0 and 1000')
      .max(1000, 'must be between 0 and 1000')
      .default(5),
    doc: 'How many servers without the agent (Add New Server) one operator may add (0: none)',
    sensitive: false,
  },
  MANUAL_PROBE_URL: {
    schema: url(['http', 'https']).optional(),
    doc: 'What a server added without the agent is asked to reach to prove it speaks VLESS with its link: an http(s) URL that answers a GET (default: PUBLIC_URL/healthz)',
    sensitive: false,
  },
  MANUAL_TEST_CIDRS: {
    schema: z.string().default(''),
    doc: 'Tests only: comma-separated CIDRs inside the documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32) that servers without the agent may use; refused in production',
    sensitive: false,
  },
  TEST_CLOCK_FILE: {
    schema: z.string().min(1).optional(),
    doc: 'Tests only, refused unless NODE_ENV=test: a file holding a whole number of milliseconds added to the clock; moving it runs every periodic job once (the browser suites simulate a month with it)',
    sensitive: false,
  },
  GEOIP_DIR: {
    schema: z.string().min(1).optional(),
    doc: 'A folder holding newer copies of the four ip-location-db CSV files (asn-ipv4-num.csv, asn-ipv6-num.csv, geo-whois-asn-country-ipv4-num.csv, geo-whois-asn-country-ipv6-num.csv) that replace the packaged ones; read at start (docs/reachability.md#geoip)',
    sensitive: false,
  },
  GEOIP_TEST_OVERRIDES: {
    schema: z.string().default(''),
    doc: 'Tests only, refused unless NODE_ENV=test: comma-separated CIDR=CC:ASN[:name] inside the documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32) that GeoIP places there instead of its database (longest prefix wins)',
    sensitive: false,
  },
  SOLANA_RPC_URL: {
    schema: url(['http', 'https']).optional(),
    doc: 'Solana JSON-RPC the control plane reads to verify deposits (with SOLANA_DEPOSIT_ADDRESS; without both, deposits are off and their routes answer 503)',
    sensitive: true,
  },
  SOLANA_PUBLIC_RPC_URL: {
    schema: url(['http', 'https']).optional(),
    doc: 'The RPC the portal tells wallets to use (GET /solana/config rpcUrl; default: SOLANA_RPC_URL)',
    sensitive: false,
  },
  SOLANA_CLUSTER: {
    schema: z.enum(['localnet', 'devnet', 'mainnet-beta']).default('localnet'),
    doc: 'localnet, devnet or mainnet-beta: which explorer links point at; NODE_ENV=production refuses localnet',
    sensitive: false,
  },
  SOLANA_DEPOSIT_ADDRESS: {
    schema: z
      .string()
      .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'must be a base58 Solana public key')
      .optional(),
    doc: "The treasury's public key that deposits pay (a valid base58 Ed25519 public key)",
    sensitive: false,
  },
  SOLANA_COMMITMENT: {
    schema: z.enum(['confirmed', 'finalized']).default('finalized'),
    doc: 'The commitment a deposit must reach before it is credited: finalized (production) or confirmed',
    sensitive: false,
  },
  SOLANA_SSL_PER_SOL: {
    schema: z.coerce
      .number({ error: 'must be a number' })
      .int('must be an integer')
      .min(1, 'must be between 1 and 1000000000')
      .max(1_000_000_000, 'must be between 1 and 1000000000')
      .default(DEFAULT_SSL_PER_SOL),
    doc: 'SSL credited per SOL (whole SSL; spec 01 §9 default 5143); a deposit request fixes it for its quote',
    sensitive: false,
  },
  DEPOSIT_QUOTE_TTL: {
    schema: duration(60, 86400).default(30 * 60),
    doc: "How long a deposit request's quote (SOL amount and rate) holds (seconds, or 30m, 2h)",
    sensitive: false,
  },
  SOLANA_DEPOSIT_SEED: {
    schema: z
      .string()
      .regex(
        /^\s*([0-9a-fA-F]{2}){32,64}\s*$/,
        'must be 64 to 128 hex digits (a 32- to 64-byte seed)',
      )
      .optional(),
    doc: "The master seed of per-account deposit addresses (64 to 128 hex digits; SLIP-0010 m/44'/501'/<index>'/0', docs/deposits.md#per-account-addresses): keep it secret and backed up, since it holds every deposit address's funds; never stored in the database. Unset: GET /api/solana/deposit-address answers 409 deposits.addresses_off",
    sensitive: true,
  },
  SOLANA_USDC_MINT: {
    schema: z
      .string()
      .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'must be a base58 Solana public key')
      .optional(),
    doc: "USDC's SPL mint on SOLANA_CLUSTER: set, deposit addresses accept USDC at $1 = 28.571428 SSL (unset: not accepted)",
    sensitive: false,
  },
  SOLANA_USDT_MINT: {
    schema: z
      .string()
      .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'must be a base58 Solana public key')
      .optional(),
    doc: "USDT's SPL mint on SOLANA_CLUSTER: set, deposit addresses accept USDT at $1 = 28.571428 SSL (unset: not accepted)",
    sensitive: false,
  },
  DEPOSIT_MIN_SOL: {
    schema: z
      .string()
      .regex(/^\d+(\.\d{1,9})?$/, 'must be an amount of SOL with at most 9 decimals (e.g. 0.01)')
      .refine((text) => /[1-9]/.test(text), 'must be above 0')
      .default('0.01'),
    doc: 'The least SOL a transfer to a deposit address must carry to be credited',
    sensitive: false,
  },
  DEPOSIT_MIN_TOKEN: {
    schema: z
      .string()
      .regex(/^\d+(\.\d{1,6})?$/, 'must be an amount with at most 6 decimals (e.g. 1)')
      .refine((text) => /[1-9]/.test(text), 'must be above 0')
      .default('1'),
    doc: 'The least USDC or USDT a transfer to a deposit address must carry to be credited (whole dollars, at most 6 decimals)',
    sensitive: false,
  },
  SOLANA_DEMO_WALLET_URL: {
    schema: url(['http', 'https']).optional(),
    doc: "localnet only: the local chain's demo wallet the portal offers (Pay with the demo wallet)",
    sensitive: false,
  },
  SHARE_VERIFY_FETCH: {
    // Default by NODE_ENV (app-config.ts): without the check a post deleted within the 24-hour
    // hold is paid all the same, so production checks unless told not to.
    schema: bool.optional(),
    doc: 'Share-and-earn: before paying a share reward (24 hours after the share) fetch the post and forfeit the reward on a 404 or 410 (default: on when NODE_ENV=production, off otherwise; set false where the platforms cannot be reached, and the start log says it is off)',
    sensitive: false,
  },
  SHARE_VERIFY_BASE_URL: {
    schema: url(['http', 'https']).optional(),
    doc: "Tests: fetch shared posts' paths from this base instead of x.com, instagram.com or t.me (its loopback host is then allowed; private ranges never are)",
    sensitive: false,
  },
  CLIENT_APK_MIRROR: {
    // Default by NODE_ENV (app-config.ts): GitHub is slow or blocked where most users live, so
    // production serves its own copies unless told not to; tests and npm start never go out.
    schema: bool.optional(),
    doc: "Mirror the client apps' Android APKs (v2rayNG, Hiddify; upstream URLs in client-apps.json): fetched at start and every 6 hours into DATA_DIR/client-apps, hashed while written, served at /downloads/apps/<file> with their SHA-256 in /checksums/client (default: on when NODE_ENV=production, off otherwise)",
    sensitive: false,
  },
  CLIENT_APK_MIRROR_BASE_URL: {
    schema: url(['http', 'https']).optional(),
    doc: "Tests: fetch the APKs' paths from this base instead of github.com (its loopback host is then allowed; private ranges never are; NODE_ENV=production still needs https)",
    sensitive: false,
  },
  WITHDRAWALS_ENABLED: {
    schema: bool.default(false),
    doc: 'Node operators may withdraw SSL to a Solana address, paid in SOL from the treasury (needs the Solana settings and SOLANA_TREASURY_KEY_FILE); off: the Withdraw button shows Suspended',
    sensitive: false,
  },
  WITHDRAWAL_MIN_SSL: {
    schema: sslSetting.default(100_000_000n),
    doc: 'The smallest withdrawal (SSL, up to 6 decimals); after the 25% fee it must pay at least the 890,880 lamports a new Solana account needs',
    sensitive: false,
  },
  WITHDRAWAL_DAILY_CAP_SSL: {
    schema: sslSetting.default(50_000_000_000n),
    doc: 'The most one operator may withdraw per UTC day (SSL; failed withdrawals do not count)',
    sensitive: false,
  },
  SOLANA_TREASURY_KEY_FILE: {
    schema: z.string().min(1).optional(),
    doc: "The treasury's keypair file (Solana CLI JSON: 64 bytes), which signs payouts; required with WITHDRAWALS_ENABLED; its public key must be SOLANA_DEPOSIT_ADDRESS",
    sensitive: false,
  },
  SOLANA_FEE_PAYER_KEY_FILE: {
    schema: z.string().min(1).optional(),
    doc: 'The keypair file (Solana CLI JSON: 64 bytes) that pays the fees of sweeps from per-account deposit addresses to the treasury (docs/deposits.md#sweeps); default: SOLANA_TREASURY_KEY_FILE. Sweeps run when SOLANA_DEPOSIT_SEED is set and one of the two is',
    sensitive: false,
  },
  LOG_PRETTY: {
    schema: bool.optional(),
    doc: 'Human-readable logs (default: on in development on a terminal)',
    sensitive: false,
  },
} as const;

export type EnvName = keyof typeof ENV_VARS;

export const envSchema = z.object(
  Object.fromEntries(Object.entries(ENV_VARS).map(([k, v]) => [k, v.schema])) as {
    [K in EnvName]: (typeof ENV_VARS)[K]['schema'];
  },
);

export type Env = z.infer<typeof envSchema>;
