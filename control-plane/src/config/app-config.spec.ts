import { ConfigError, loadConfig } from './app-config';
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

describe('loadConfig: servers without the agent (issue 15 §4)', () => {
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

  it('should parse SESSION_TTL units', () => {
    expect(loadConfig({ ...base, SESSION_TTL: '12h' }).sessionTtlSeconds).toBe(43200);
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
