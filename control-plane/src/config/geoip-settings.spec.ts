import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config';
import { GEOIP_FILES } from './geoip-settings';

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

describe('loadConfig: GeoIP', () => {
  it('should default to the packaged database and no overrides', () => {
    expect(loadConfig(base)).toMatchObject({ geoipDir: undefined, geoipTestOverrides: [] });
  });

  it('should parse test overrides with NODE_ENV=test (name optional, colons kept in it)', () => {
    const config = loadConfig({
      ...base,
      NODE_ENV: 'test',
      GEOIP_TEST_OVERRIDES:
        ' 198.51.100.20/30=IR:44244:Irancell , 203.0.113.0/24=de:3320:Deutsche Telekom,2001:db8:5::/48=NL:1136,192.0.2.7/32=US:7:a:b',
    });
    expect(config.geoipTestOverrides).toEqual([
      {
        cidr: '198.51.100.20/30',
        network: '198.51.100.20',
        prefix: 30,
        family: 'ipv4',
        country: 'IR',
        asn: 44244,
        asnName: 'Irancell',
      },
      expect.objectContaining({ country: 'DE', asn: 3320, asnName: 'Deutsche Telekom' }),
      expect.objectContaining({ family: 'ipv6', prefix: 48, asn: 1136, asnName: null }),
      expect.objectContaining({ asnName: 'a:b' }),
    ]);
  });

  it.each([
    ['198.51.100.0/33=IR:44244', '"198.51.100.0/33=IR:44244" must be CIDR=CC:ASN'],
    ['198.51.100.0=IR:44244', '"198.51.100.0=IR:44244" must be CIDR=CC:ASN'],
    ['198.51.100.0/24=IRN:44244', '"198.51.100.0/24=IRN:44244" must be CIDR=CC:ASN'],
    ['198.51.100.0/24=IR', '"198.51.100.0/24=IR" must be CIDR=CC:ASN'],
    ['198.51.100.0/24=IR:4294967296', '"198.51.100.0/24=IR:4294967296" must be CIDR=CC:ASN'],
    ['198.51.100.0/24=IR:x:Name', '"198.51.100.0/24=IR:x:Name" must be CIDR=CC:ASN'],
    ['8.8.8.0/24=US:15169', '8.8.8.0/24 is not a CIDR inside 192.0.2.0/24, 198.51.100.0/24'],
    ['198.51.0.0/16=IR:44244', '198.51.0.0/16 is not a CIDR inside'],
    ['2001:db8::/31=IR:44244', '2001:db8::/31 is not a CIDR inside'],
    ['10.0.0.0/8=IR:44244', '10.0.0.0/8 is not a CIDR inside'],
  ])('should refuse %j', (value, problem) => {
    expect(problemsOf({ NODE_ENV: 'test', GEOIP_TEST_OVERRIDES: value })).toEqual([
      expect.stringContaining(`GEOIP_TEST_OVERRIDES: ${problem}`),
    ]);
  });

  it.each([['production'], ['development'], [undefined]])(
    'should refuse test overrides unless NODE_ENV=test (NODE_ENV=%s)',
    (nodeEnv) => {
      expect(
        problemsOf({
          GEOIP_TEST_OVERRIDES: '203.0.113.0/24=DE:3320',
          ...(nodeEnv ? { NODE_ENV: nodeEnv } : {}),
        }),
      ).toEqual([
        `GEOIP_TEST_OVERRIDES: is for tests only and refused unless NODE_ENV=test (NODE_ENV=${nodeEnv ?? 'development'})`,
      ]);
    },
  );

  it('should take a GEOIP_DIR holding the four files, and refuse one that lacks any', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scn-geoip-dir-'));
    try {
      for (const file of Object.values(GEOIP_FILES).slice(1)) writeFileSync(join(dir, file), '');
      expect(problemsOf({ GEOIP_DIR: dir })).toEqual([
        `GEOIP_DIR=${JSON.stringify(dir)}: lacks asn-ipv4-num.csv (it needs all four files)`,
      ]);
      writeFileSync(join(dir, GEOIP_FILES.asn4), '');
      expect(loadConfig({ ...base, GEOIP_DIR: dir }).geoipDir).toBe(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
