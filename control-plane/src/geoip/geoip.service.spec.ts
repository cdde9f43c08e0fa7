import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ipv6Bytes } from '../common/address-policy';
import { loadConfig } from '../config/app-config';
import { GEOIP_FILES } from '../config/geoip-settings';
import { GeoIpService } from './geoip.service';

const base = { DATA_DIR: '/tmp/scn-geoip-spec', APP_SECRET: 'x'.repeat(32), NODE_ENV: 'test' };

const v6 = (address: string) =>
  Array.from(ipv6Bytes(address)!).reduce((n, byte) => (n << 8n) | BigInt(byte), 0n);
const v6Row = (first: string, last: string, rest: string) => `${v6(first)},${v6(last)},${rest}`;

/** A GEOIP_DIR of four small files, with gaps between the rows. */
function fixtureDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scn-geoip-'));
  const files: Record<keyof typeof GEOIP_FILES, string[]> = {
    asn4: [
      '16777216,16777471,13335,"Cloudflare, Inc."', // 1.0.0.0 - 1.0.0.255
      '16778240,16779263,38803,Gtelecom Pty Ltd', // 1.0.4.0 - 1.0.7.255
      '134744064,134744319,15169,Google LLC', // 8.8.8.0 - 8.8.8.255
    ],
    country4: ['16777216,16778239,AU', '134744064,134744319,US'],
    asn6: [v6Row('2001:4860::', '2001:4860:ffff:ffff:ffff:ffff:ffff:ffff', '15169,Google LLC')],
    country6: [
      v6Row('2001:4860::', '2001:4860:ffff:ffff:ffff:ffff:ffff:ffff', 'US'),
      v6Row('2a00:1450::', '2a00:1450:ffff:ffff:ffff:ffff:ffff:ffff', 'IE'),
    ],
  };
  for (const [key, rows] of Object.entries(files)) {
    writeFileSync(join(dir, GEOIP_FILES[key as keyof typeof GEOIP_FILES]), `${rows.join('\n')}\n`);
  }
  return dir;
}

describe('GeoIpService (a GEOIP_DIR fixture)', () => {
  let dir: string;
  let geoip: GeoIpService;

  beforeAll(async () => {
    dir = fixtureDir();
    geoip = new GeoIpService(
      loadConfig({
        ...base,
        GEOIP_DIR: dir,
        GEOIP_TEST_OVERRIDES:
          '198.51.100.20/30=IR:44244:Irancell,198.51.100.0/24=DE:3320:Deutsche Telekom,2001:db8::/32=NL:1136',
      }),
    );
    expect(geoip.lookup('1.0.0.1')).toEqual({ country: null, asn: null, asnName: null });
    await geoip.whenReady();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const cloudflare = { country: 'AU', asn: 13335, asnName: 'Cloudflare, Inc.' };
  const nowhere = { country: null, asn: null, asnName: null };

  it.each([
    ['1.0.0.0', cloudflare],
    ['1.0.0.255', cloudflare],
    ['1.0.1.0', { country: 'AU', asn: null, asnName: null }],
    ['1.0.7.255', { country: null, asn: 38803, asnName: 'Gtelecom Pty Ltd' }],
    ['1.0.8.0', nowhere],
    ['8.8.8.8', { country: 'US', asn: 15169, asnName: 'Google LLC' }],
    ['::ffff:8.8.8.8', { country: 'US', asn: 15169, asnName: 'Google LLC' }],
    ['::ffff:1.0.0.1', cloudflare],
    ['2001:4860:4860::8888', { country: 'US', asn: 15169, asnName: 'Google LLC' }],
    [
      '2001:4860:ffff:ffff:ffff:ffff:ffff:ffff',
      { country: 'US', asn: 15169, asnName: 'Google LLC' },
    ],
    ['2001:4861::', nowhere],
    ['2a00:1450:4001::1', { country: 'IE', asn: null, asnName: null }],
  ])('should place %s', (address, place) => {
    expect(geoip.lookup(address)).toEqual(place);
  });

  it.each([
    ['198.51.100.21', { country: 'IR', asn: 44244, asnName: 'Irancell' }],
    ['198.51.100.23', { country: 'IR', asn: 44244, asnName: 'Irancell' }],
    ['198.51.100.24', { country: 'DE', asn: 3320, asnName: 'Deutsche Telekom' }],
    ['::ffff:198.51.100.20', { country: 'IR', asn: 44244, asnName: 'Irancell' }],
    ['2001:db8:1::5', { country: 'NL', asn: 1136, asnName: null }],
    ['203.0.113.1', nowhere],
  ])('should place %s by the longest override prefix', (address, place) => {
    expect(geoip.lookup(address)).toEqual(place);
  });

  it.each([
    '',
    'not an address',
    '1.2.3',
    '1.0.0.1/24',
    '300.1.1.1',
    '2001:4860::g',
    ':::',
    '1.0.0.1 '.repeat(30),
    '10.0.0.1',
    '192.168.1.1',
    '127.0.0.1',
    '::1',
    'fe80::1%eth0',
  ])('should place %j nowhere, without throwing', (address) => {
    expect(geoip.lookup(address)).toEqual(nowhere);
  });

  it('should place values that are not strings nowhere (callers with unchecked input)', () => {
    for (const value of [undefined, null, 42, {}]) {
      expect(geoip.lookup(value as unknown as string)).toEqual(nowhere);
    }
  });

  it('should reject whenReady when a file is malformed, and place everything nowhere', async () => {
    const broken = fixtureDir();
    writeFileSync(join(broken, GEOIP_FILES.country4), '5,6,AU\n1,2,AU\n');
    const service = new GeoIpService(loadConfig({ ...base, GEOIP_DIR: broken }));
    await expect(service.whenReady()).rejects.toThrow('the rows are not sorted');
    expect(service.lookup('1.0.0.1')).toEqual(nowhere);
    rmSync(broken, { recursive: true, force: true });
  });
});
