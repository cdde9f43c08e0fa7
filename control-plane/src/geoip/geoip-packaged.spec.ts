import { loadConfig } from '../config/app-config';
import { GeoIpService } from './geoip.service';

// The packaged @ip-location-db files as they ship. Each expectation was checked against the
// rows of the CSV files (asn-ipv4.csv: 1.1.1.0,1.1.1.255,13335,"Cloudflare, Inc."; 8.8.8.0,
// 8.8.8.255,15169,Google LLC; asn-ipv6.csv: 2606:4700:4700::/48 13335 and 2001:4860:4806:: to
// 2001:4860:480b:ffff:... 15169; the country files: 1.1.1.0/24 AU, 8.8.8.8 and both IPv6 US).
// A newer package may move a row: check the CSV before changing an expectation.
describe('GeoIpService (the packaged database)', () => {
  const geoip = new GeoIpService(
    loadConfig({ DATA_DIR: '/tmp/scn-geoip-spec', APP_SECRET: 'x'.repeat(32), NODE_ENV: 'test' }),
  );
  beforeAll(() => geoip.whenReady(), 60_000);

  it.each([
    ['1.1.1.1', { country: 'AU', asn: 13335, asnName: 'Cloudflare, Inc.' }],
    ['8.8.8.8', { country: 'US', asn: 15169, asnName: 'Google LLC' }],
    ['::ffff:8.8.4.4', { country: 'US', asn: 15169, asnName: 'Google LLC' }],
    ['2606:4700:4700::1111', { country: 'US', asn: 13335, asnName: 'Cloudflare, Inc.' }],
    ['2001:4860:4860::8888', { country: 'US', asn: 15169, asnName: 'Google LLC' }],
  ])('should place %s', (address, place) => {
    expect(geoip.lookup(address)).toEqual(place);
  });

  it('should place private and documentation addresses nowhere (the data has 192.168/16 as AU)', () => {
    for (const address of ['192.168.1.1', '10.1.2.3', '203.0.113.9', '2001:db8::1']) {
      expect(geoip.lookup(address)).toEqual({ country: null, asn: null, asnName: null });
    }
  });
});
