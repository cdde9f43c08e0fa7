import { Keypair } from '@solana/web3.js';
import { ConfigError, describeConfig, loadConfig } from './app-config';
import { parseDuration } from './duration';

const base = { DATA_DIR: '/tmp/scn-config-spec', APP_SECRET: 'x'.repeat(32) };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ ...base, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig: servers without the agent', () => {
  it('should default to 5 per operator, the public health endpoint as probe target and no test nets', () => {
    expect(loadConfig({ ...base, PUBLIC_URL: 'https://scn.example' })).toMatchObject({
      manualServersPerOperator: 5,
      manualServerProbeUrl: 'https://scn.example/healthz',
      manualServerAllowedCidrs: [],
    });
  });

  it.each([
    [{ MANUAL_SERVER_LIMIT: '-1' }, 'MANUAL_SERVER_LIMIT="-1": must be between 0 and 1000'],
    [{ MANUAL_SERVER_LIMIT: 'many' }, 'MANUAL_SERVER_LIMIT="many": must be a number'],
    [
      { MANUAL_PROBE_URL: 'ftp://x.example' },
      'MANUAL_PROBE_URL="ftp://x.example": must start with http:// or https://',
    ],
    [{ MANUAL_TEST_CIDRS: '10.0.0.0/8' }, 'MANUAL_TEST_CIDRS: 10.0.0.0/8 is not a CIDR inside'],
    [
      { MANUAL_TEST_CIDRS: '198.51.0.0/16' },
      'MANUAL_TEST_CIDRS: 198.51.0.0/16 is not a CIDR inside',
    ],
    [
      { MANUAL_TEST_CIDRS: '203.0.113.64/30', NODE_ENV: 'production' },
      'MANUAL_TEST_CIDRS: is for tests only and must be empty when NODE_ENV=production',
    ],
  ])('should refuse %j', (env, problem) => {
    expect(problemsOf(env).join('\n')).toContain(problem);
  });

  it.each([['production'], ['development'], [undefined]])(
    'should refuse a test clock file unless NODE_ENV=test (NODE_ENV=%s)',
    (nodeEnv) => {
      expect(
        problemsOf({ TEST_CLOCK_FILE: '/tmp/clock', ...(nodeEnv ? { NODE_ENV: nodeEnv } : {}) }),
      ).toEqual([
        `TEST_CLOCK_FILE: is for tests only and refused unless NODE_ENV=test (NODE_ENV=${nodeEnv ?? 'development'})`,
      ]);
    },
  );

  it('should take a test clock file with NODE_ENV=test, and none by default', () => {
    expect(
      loadConfig({ ...base, NODE_ENV: 'test', TEST_CLOCK_FILE: '/tmp/clock' }).testClockFile,
    ).toBe('/tmp/clock');
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).testClockFile).toBeUndefined();
  });

  it('should take test CIDRs inside the documentation ranges', () => {
    expect(
      loadConfig({ ...base, MANUAL_TEST_CIDRS: '203.0.113.64/30, 2001:db8::/48' })
        .manualServerAllowedCidrs,
    ).toEqual(['203.0.113.64/30', '2001:db8::/48']);
  });
});

describe('loadConfig', () => {
  it('should apply the documented defaults when the environment is empty', () => {
    const config = loadConfig(base);
    expect(config).toMatchObject({
      port: 5050,
      publicUrl: 'http://localhost:5050',
      databaseUrl: undefined,
      smtpUrl: undefined,
      sessionTtlSeconds: 7 * 86400,
      secureCookies: false,
    });
  });

  it('should default the public URL to the port the control plane listens on', () => {
    expect(loadConfig({ ...base, PORT: '3999' }).publicUrl).toBe('http://localhost:3999');
    expect(
      loadConfig({ ...base, PORT: '3999', PUBLIC_URL: 'https://scn.example/' }).publicUrl,
    ).toBe('https://scn.example');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT="eighty": must be a number'],
    [{ PORT: '70000' }, 'PORT="70000": must be between 1 and 65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL=(hidden)'],
    [
      { PUBLIC_URL: 'localhost:5050' },
      'PUBLIC_URL="localhost:5050": must start with http:// or https://',
    ],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL="not a url": must be a URL'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL=(hidden): must start with smtp:// or smtps://'],
    [{ SUPPORT_EMAIL: 'nobody' }, 'SUPPORT_EMAIL="nobody": must be an e-mail address'],
    [
      { SESSION_TTL: 'forever' },
      'SESSION_TTL="forever": must be a duration like 3600, 30m, 12h or 7d',
    ],
    [{ SESSION_TTL: '10s' }, 'SESSION_TTL="10s": must be between 300s and 7776000s'],
    [{ MAIL_FROM: 'no at sign' }, 'MAIL_FROM="no at sign"'],
    [{ APP_SECRET: 'short' }, 'APP_SECRET=(hidden): must be at least 32 characters'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY="true": true and hop counts believe any client'],
    [{ TRUST_PROXY: '2' }, 'TRUST_PROXY="2": true and hop counts believe any client'],
    [{ TRUST_PROXY: 'loopback, proxy.local' }, '"proxy.local" is not an IP address, a CIDR'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, '"10.0.0.0/33" is not an IP address, a CIDR'],
    [{ TRUST_PROXY: '2001:db8::/129' }, '"2001:db8::/129" is not an IP address, a CIDR'],
    [{ TRUST_PROXY: '10.0.0.1/8/8' }, '"10.0.0.1/8/8" is not an IP address, a CIDR'],
  ])('should stop with a message naming the variable for %j', (env, expected) => {
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(expected);
  });

  it('should require APP_SECRET in production', () => {
    expect(() => loadConfig({ DATA_DIR: base.DATA_DIR, NODE_ENV: 'production' })).toThrow(
      /APP_SECRET/,
    );
  });

  it('should never echo a sensitive value', () => {
    const problems = problemsOf({ DATABASE_URL: 'ftp://user:hunter2@db' });
    expect(problems.join()).not.toContain('hunter2');
  });

  it('should turn on secure cookies for an https PUBLIC_URL and strip a trailing slash', () => {
    const config = loadConfig({ ...base, PUBLIC_URL: 'https://scn.example/' });
    expect(config.secureCookies).toBe(true);
    expect(config.publicUrl).toBe('https://scn.example');
  });

  it('should trust X-Forwarded-For from loopback only by default, and take a validated list', () => {
    expect(loadConfig(base).trustProxy).toEqual(['loopback']);
    expect(
      loadConfig({ ...base, TRUST_PROXY: '172.31.255.2, 2001:db8::/64 uniquelocal' }).trustProxy,
    ).toEqual(['172.31.255.2', '2001:db8::/64', 'uniquelocal']);
    expect(loadConfig({ ...base, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: 'none' }).trustProxy).toBe(false);
  });

  it('should parse SESSION_TTL units', () => {
    expect(loadConfig({ ...base, SESSION_TTL: '12h' }).sessionTtlSeconds).toBe(43200);
  });

  it('should default the database timeouts and the demo node ports', () => {
    expect(loadConfig(base)).toMatchObject({
      databaseTimeouts: { connectMs: 5000, statementMs: 8_000, queryMs: 10_000, lockMs: 5_000 },
      demoNodePort: 20_001,
      demoCoreApiPort: 21_001,
    });
  });

  it('should take the demo node ports and the database timeouts from the environment', () => {
    const config = loadConfig({
      ...base,
      DEMO_NODES: '3',
      DEMO_NODE_PORT: '30001',
      DEMO_CORE_API_PORT: '31001',
      DB_CONNECT_TIMEOUT_MS: '1500',
      DB_STATEMENT_TIMEOUT_MS: '0',
      DB_QUERY_TIMEOUT_MS: '0',
      DB_LOCK_TIMEOUT_MS: '0',
    });
    expect(config).toMatchObject({
      demoNodePort: 30_001,
      demoCoreApiPort: 31_001,
      databaseTimeouts: { connectMs: 1500, statementMs: 0, queryMs: 0, lockMs: 0 },
    });
  });

  it.each([
    [{ DB_CONNECT_TIMEOUT_MS: '50' }, 'DB_CONNECT_TIMEOUT_MS="50": must be between 100 and 120000'],
    [{ DB_CONNECT_TIMEOUT_MS: '0' }, 'DB_CONNECT_TIMEOUT_MS="0": must be between 100'],
    [{ DB_STATEMENT_TIMEOUT_MS: '5s' }, 'DB_STATEMENT_TIMEOUT_MS="5s": must be a number'],
    [{ DB_LOCK_TIMEOUT_MS: '1.5' }, 'DB_LOCK_TIMEOUT_MS="1.5": must be an integer'],
    [
      { DB_STATEMENT_TIMEOUT_MS: '20000', DB_QUERY_TIMEOUT_MS: '20000' },
      'DB_QUERY_TIMEOUT_MS=20000: must exceed DB_STATEMENT_TIMEOUT_MS (20000)',
    ],
    [
      { DB_STATEMENT_TIMEOUT_MS: '0' },
      'DB_QUERY_TIMEOUT_MS=10000: must exceed DB_STATEMENT_TIMEOUT_MS (0, off) or be 0 (off)',
    ],
    [
      { DB_LOCK_TIMEOUT_MS: '9000' },
      'DB_LOCK_TIMEOUT_MS=9000: must not exceed DB_STATEMENT_TIMEOUT_MS (8000)',
    ],
    [{ DEMO_NODE_PORT: '0' }, 'DEMO_NODE_PORT="0": must be between 1 and 65535'],
    [
      { DEMO_NODES: '3', DEMO_NODE_PORT: '65534' },
      'DEMO_NODE_PORT=65534: 3 demo nodes need ports up to 65536 (max 65535)',
    ],
    [
      { DEMO_NODES: '3', DEMO_NODE_PORT: '21000' },
      'DEMO_NODE_PORT=21000 and DEMO_CORE_API_PORT=21001: the 3-port ranges overlap',
    ],
    [
      { DEMO_NODES: '1', DEMO_CORE_API_PORT: '5050' },
      'DEMO_CORE_API_PORT=5050: demo node ports 5050-5050 include PORT (5050)',
    ],
    [
      { DEMO_NODES: '2', DEMO_NODE_PORT: '54328' },
      'DEMO_NODE_PORT=54328: demo node ports 54328-54329 include EMBEDDED_PG_PORT (54329)',
    ],
  ])('should refuse %j', (env, expected) => {
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(expected);
  });

  it('should not check demo node ports when there are no demo nodes', () => {
    expect(problemsOf({ DEMO_NODES: '0', DEMO_NODE_PORT: '5050' })).toEqual([]);
  });
});

describe('parseDuration', () => {
  it.each([
    ['3600', 3600],
    ['30m', 1800],
    ['12h', 43200],
    ['7d', 604800],
    ['1w', null],
    ['-5', null],
    ['', null],
  ])('should read %s as %s', (input, expected) => {
    expect(parseDuration(input)).toBe(expected);
  });
});

describe("loadConfig: the agents' report allowance", () => {
  it("should allow 20 reports at once by default and take a load test's larger burst", () => {
    expect(loadConfig(base).agentReportBurst).toBe(20);
    expect(loadConfig({ ...base, AGENT_REPORT_BURST: '1000000' }).agentReportBurst).toBe(1_000_000);
  });

  it.each([
    [{ AGENT_REPORT_BURST: '0' }, 'AGENT_REPORT_BURST="0": must be between 1 and 1000000'],
    [{ AGENT_REPORT_BURST: 'lots' }, 'AGENT_REPORT_BURST="lots": must be a number'],
  ])('should refuse %j', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });
});

const solanaAddress = Keypair.generate().publicKey.toBase58();
const on = { SOLANA_RPC_URL: 'http://127.0.0.1:8899', SOLANA_DEPOSIT_ADDRESS: solanaAddress };

describe('loadConfig: Solana deposits', () => {
  it('should turn deposits off when neither the RPC nor the deposit address is set', () => {
    expect(loadConfig(base).solana).toBeNull();
  });

  it('should default to localnet, finalized, 5143 SSL per SOL and a 30 minute quote', () => {
    expect(loadConfig({ ...base, ...on }).solana).toEqual({
      rpcUrl: 'http://127.0.0.1:8899',
      publicRpcUrl: 'http://127.0.0.1:8899',
      cluster: 'localnet',
      depositAddress: solanaAddress,
      commitment: 'finalized',
      sslPerSol: 5143,
      quoteTtlSeconds: 1800,
      demoWalletUrl: null,
      depositAddresses: null,
    });
  });

  it('should enable per-account deposit addresses with the seed, and take the mints and minimums', () => {
    const usdc = Keypair.generate().publicKey.toBase58();
    const settings = loadConfig({
      ...base,
      ...on,
      SOLANA_DEPOSIT_SEED: 'ab'.repeat(32),
      SOLANA_USDC_MINT: usdc,
      DEPOSIT_MIN_SOL: '0.5',
      DEPOSIT_MIN_TOKEN: '2.25',
    }).solana?.depositAddresses;
    expect(settings).toEqual({
      seed: Buffer.from('ab'.repeat(32), 'hex'),
      usdcMint: usdc,
      usdtMint: null,
      minLamports: 500_000_000n,
      minTokenBaseUnits: 2_250_000n,
    });
    expect(
      loadConfig({ ...base, ...on, SOLANA_DEPOSIT_SEED: 'cd'.repeat(64) }).solana?.depositAddresses,
    ).toMatchObject({ minLamports: 10_000_000n, minTokenBaseUnits: 1_000_000n });
  });

  it('should say in the start-up line whether deposit addresses are on, never the seed', () => {
    const seed = '9c'.repeat(32);
    const config = loadConfig({ ...base, ...on, SOLANA_DEPOSIT_SEED: seed });
    const line = JSON.stringify(describeConfig(config));
    expect(describeConfig(config).depositAddresses).toBe('on (SOL)');
    expect(line).not.toContain(seed);
    expect(line).not.toContain(seed.slice(0, 16));
    expect(describeConfig(loadConfig({ ...base, ...on })).depositAddresses).toBe(
      'off (SOLANA_DEPOSIT_SEED)',
    );
  });

  it('should never echo a malformed SOLANA_DEPOSIT_SEED in its refusal', () => {
    const secret = 'ef'.repeat(31);
    let message = '';
    try {
      loadConfig({ ...base, ...on, SOLANA_DEPOSIT_SEED: secret });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('SOLANA_DEPOSIT_SEED');
    expect(message).not.toContain(secret);
  });

  it('should take every setting when given', () => {
    const settings = loadConfig({
      ...base,
      ...on,
      SOLANA_PUBLIC_RPC_URL: 'https://rpc.example',
      SOLANA_CLUSTER: 'devnet',
      SOLANA_COMMITMENT: 'confirmed',
      SOLANA_SSL_PER_SOL: '6000',
      DEPOSIT_QUOTE_TTL: '10m',
    }).solana;
    expect(settings).toMatchObject({
      publicRpcUrl: 'https://rpc.example',
      cluster: 'devnet',
      commitment: 'confirmed',
      sslPerSol: 6000,
      quoteTtlSeconds: 600,
    });
  });

  it.each([
    [{ SOLANA_RPC_URL: 'http://127.0.0.1:8899' }, 'set both (deposits on) or neither'],
    [{ SOLANA_DEPOSIT_ADDRESS: solanaAddress }, 'set both (deposits on) or neither'],
    [{ ...on, SOLANA_DEPOSIT_ADDRESS: 'not-base58!' }, 'must be a base58 Solana public key'],
    // 44 base58 characters that decode to more than 32 bytes.
    [{ ...on, SOLANA_DEPOSIT_ADDRESS: 'z'.repeat(44) }, 'is not a valid base58 public key'],
    [{ ...on, SOLANA_RPC_URL: 'ws://x.example' }, 'must start with http:// or https://'],
    [{ ...on, SOLANA_CLUSTER: 'testnet' }, 'SOLANA_CLUSTER="testnet"'],
    [{ ...on, SOLANA_COMMITMENT: 'processed' }, 'SOLANA_COMMITMENT="processed"'],
    [{ ...on, SOLANA_SSL_PER_SOL: '0' }, 'must be between 1 and 1000000000'],
    [{ SOLANA_DEPOSIT_SEED: 'ab'.repeat(32) }, 'SOLANA_DEPOSIT_SEED: needs SOLANA_RPC_URL'],
    [{ ...on, SOLANA_USDC_MINT: 'z'.repeat(44) }, 'SOLANA_USDC_MINT="zzzz'],
    [
      { ...on, SOLANA_USDC_MINT: solanaAddress, SOLANA_USDT_MINT: solanaAddress },
      'must be different mints',
    ],
    [{ ...on, DEPOSIT_MIN_SOL: '0' }, 'DEPOSIT_MIN_SOL'],
    [{ ...on, DEPOSIT_MIN_TOKEN: '0.0000001' }, 'DEPOSIT_MIN_TOKEN'],
    [{ ...on, DEPOSIT_QUOTE_TTL: '10' }, 'DEPOSIT_QUOTE_TTL="10": must be between 60s'],
    [
      { ...on, NODE_ENV: 'production' },
      'SOLANA_CLUSTER=localnet: is refused when NODE_ENV=production',
    ],
    [{ NODE_ENV: 'production', SOLANA_CLUSTER: 'localnet' }, 'is refused when NODE_ENV=production'],
    [
      { ...on, SOLANA_CLUSTER: 'devnet', SOLANA_DEMO_WALLET_URL: 'http://127.0.0.1:8900' },
      'SOLANA_DEMO_WALLET_URL: only for SOLANA_CLUSTER=localnet',
    ],
  ])('should refuse %j', (env, problem) => {
    expect(problemsOf(env).join('\n')).toContain(problem);
  });

  it('should let production run with deposits off and no cluster named', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([]);
  });

  it('should hide the RPC URL (it may carry an API key) in the error', () => {
    expect(problemsOf({ SOLANA_RPC_URL: 'nope?key=secret' }).join('\n')).toContain(
      'SOLANA_RPC_URL=(hidden)',
    );
  });
});

describe("loadConfig: the client apps' APK mirror (CLIENT_APK_MIRROR)", () => {
  it.each([
    ['production', true, false],
    ['development', false, true],
    ['test', false, true],
  ])('should default with NODE_ENV=%s to %s (plain http allowed: %s)', (nodeEnv, on, http) => {
    const config = loadConfig({ ...base, NODE_ENV: nodeEnv });
    expect(config.apkMirror).toEqual({ enabled: on, baseUrl: null, allowHttp: http });
  });

  it('should follow an explicit setting and take a base URL for tests', () => {
    const off = loadConfig({ ...base, NODE_ENV: 'production', CLIENT_APK_MIRROR: 'false' });
    expect(off.apkMirror.enabled).toBe(false);
    expect(describeConfig(off).apkMirror).toMatch(/^off \(CLIENT_APK_MIRROR\)/);
    const on = loadConfig({
      ...base,
      NODE_ENV: 'test',
      CLIENT_APK_MIRROR: 'true',
      CLIENT_APK_MIRROR_BASE_URL: 'http://127.0.0.1:4000',
    });
    expect(on.apkMirror).toEqual({
      enabled: true,
      baseUrl: 'http://127.0.0.1:4000',
      allowHttp: true,
    });
    expect(problemsOf({ CLIENT_APK_MIRROR_BASE_URL: 'ftp://x' }).join('\n')).toContain(
      'CLIENT_APK_MIRROR_BASE_URL',
    );
  });
});

describe('loadConfig: the share-and-earn post check (SHARE_VERIFY_FETCH)', () => {
  it.each([
    ['production', true],
    ['development', false],
    ['test', false],
  ])('should default to %s: %s', (nodeEnv, enabled) => {
    expect(loadConfig({ ...base, NODE_ENV: nodeEnv }).shareVerify.enabled).toBe(enabled);
  });

  it.each([
    ['production', 'false', false],
    ['production', 'true', true],
    ['development', 'true', true],
    ['test', '0', false],
  ])('should follow an explicit setting with NODE_ENV=%s and %s', (nodeEnv, value, enabled) => {
    const config = loadConfig({ ...base, NODE_ENV: nodeEnv, SHARE_VERIFY_FETCH: value });
    expect(config.shareVerify.enabled).toBe(enabled);
  });

  it('should say in the start-up log line when the check is off', () => {
    const off = loadConfig({ ...base, NODE_ENV: 'production', SHARE_VERIFY_FETCH: 'false' });
    expect(describeConfig(off).sharePostCheck).toMatch(/^off \(SHARE_VERIFY_FETCH\): .*still paid/);
    expect(describeConfig(loadConfig({ ...base, NODE_ENV: 'production' })).sharePostCheck).toBe(
      'on',
    );
  });
});

describe('loadConfig: node names (SCN_NODE_DOMAIN, SCN_DNS_*)', () => {
  it('should have no names and no DNS server by default', () => {
    expect(loadConfig(base).nodeDns).toBeNull();
    expect(loadConfig({ ...base, SCN_NODE_DOMAIN: '' }).nodeDns).toBeNull();
  });

  it('should take the zone in lower case, the listen address and the SOA defaults', () => {
    expect(
      loadConfig({
        ...base,
        PUBLIC_URL: 'https://scn.example.org',
        SCN_NODE_DOMAIN: 'Nodes.Example.NET.',
        SCN_DNS_LISTEN: '0.0.0.0:53',
      }).nodeDns,
    ).toEqual({
      domain: 'nodes.example.net',
      listen: { host: '0.0.0.0', port: 53 },
      nameServers: ['scn.example.org'],
      hostmaster: 'hostmaster.nodes.example.net',
    });
    expect(
      loadConfig({
        ...base,
        SCN_NODE_DOMAIN: 'nodes.example.net',
        SCN_DNS_LISTEN: '[::1]:0',
        SCN_DNS_NS: 'NS1.example.org., ns2.example.org',
        SCN_DNS_HOSTMASTER: 'DNS@example.org',
      }).nodeDns,
    ).toEqual({
      domain: 'nodes.example.net',
      listen: { host: '::1', port: 0 },
      nameServers: ['ns1.example.org', 'ns2.example.org'],
      hostmaster: 'dns.example.org',
    });
  });

  it.each([
    [{ SCN_NODE_DOMAIN: 'localhost' }, 'SCN_NODE_DOMAIN="localhost": must be a DNS name'],
    [{ SCN_NODE_DOMAIN: 'bad_label.example' }, 'SCN_NODE_DOMAIN="bad_label.example": must be'],
    [
      { SCN_NODE_DOMAIN: 'nodes.example.net', SCN_DNS_LISTEN: '53' },
      'SCN_DNS_LISTEN="53": must be address:port',
    ],
    [
      { SCN_NODE_DOMAIN: 'nodes.example.net', SCN_DNS_LISTEN: '127.0.0.1:70000' },
      'SCN_DNS_LISTEN="127.0.0.1:70000": must be address:port',
    ],
    [{ SCN_DNS_LISTEN: '127.0.0.1:53' }, 'SCN_DNS_LISTEN: needs SCN_NODE_DOMAIN'],
  ])('should refuse %j', (env, message) => {
    expect(problemsOf(env).join('\n')).toContain(message);
  });
});

describe('loadConfig: the drain on SIGTERM (DRAIN_DELAY_MS, SHUTDOWN_TIMEOUT_MS)', () => {
  it.each([
    ['production', 5000],
    ['development', 0],
    ['test', 0],
  ])('should default with NODE_ENV=%s to a delay of %d ms and a 10 s bound', (nodeEnv, delayMs) => {
    expect(loadConfig({ ...base, NODE_ENV: nodeEnv }).drain).toEqual({
      delayMs,
      timeoutMs: 10_000,
    });
  });

  it('should take explicit values, 0 for no delay', () => {
    const config = loadConfig({
      ...base,
      NODE_ENV: 'production',
      DRAIN_DELAY_MS: '0',
      SHUTDOWN_TIMEOUT_MS: '2500',
    });
    expect(config.drain).toEqual({ delayMs: 0, timeoutMs: 2500 });
  });

  it.each([
    [
      { DRAIN_DELAY_MS: '-1' },
      'DRAIN_DELAY_MS="-1": must be 0 (off) or between 1 and 120000 (milliseconds)',
    ],
    [{ DRAIN_DELAY_MS: '5s' }, 'DRAIN_DELAY_MS="5s": must be a number of milliseconds'],
    [
      { SHUTDOWN_TIMEOUT_MS: '0' },
      'SHUTDOWN_TIMEOUT_MS="0": must be between 100 and 600000 (milliseconds)',
    ],
  ])('should refuse %j', (env, problem) => {
    expect(problemsOf(env)).toEqual([problem]);
  });
});
