import { buildCoreConfig } from './core-config';
import {
  blockedTargetReason,
  DEFAULT_REALITY_DEST,
  REALITY_MAX_CLIENT_VER,
  REALITY_MIN_CLIENT_VER,
  REALITY_TARGET_CANDIDATES,
} from './reality-targets';

/** Xray's comparison (REALITY tls.go `Value`): the three bytes as one big-endian number. */
function versionValue(text: string): number {
  const [x = 0, y = 0, z = 0] = text.split('.').map(Number);
  return (x << 16) | (y << 8) | z;
}

/** What each REALITY client writes into its session id (their sources; reality-targets.ts). */
const CLIENT_VERSIONS: Record<string, string> = {
  'Xray 1.8.0 (the first with REALITY)': '1.8.0',
  'Xray 26.3.27': '26.3.27',
  'sing-box (SFA/SFI/SFM, Hiddify, Karing)': '1.8.1',
  'mihomo (Clash Verge, FlClash)': '1.8.2',
};

describe('REALITY client versions', () => {
  it.each(Object.entries(CLIENT_VERSIONS))(
    'should admit %s when the config carries the agent minClientVer/maxClientVer',
    (_client, version) => {
      const config = buildCoreConfig({
        kind: 'xray',
        apiPort: 10085,
        allowedUuids: [],
        inbound: {
          port: 443,
          security: 'reality',
          network: 'tcp',
          sni: 'www.example.com',
          sid: 'ab12',
          realityPrivateKey: 'cHJpdmF0ZS1rZXk',
        },
      });
      const reality = (
        config.inbounds[0]!.streamSettings as {
          realitySettings: { minClientVer: string; maxClientVer: string };
        }
      ).realitySettings;
      // Non-empty: an empty minClientVer is Xray v26.7.11+'s default 26.3.27.
      expect(reality.minClientVer).toBe(REALITY_MIN_CLIENT_VER);
      expect(reality.minClientVer).not.toBe('');
      expect(reality.maxClientVer).toBe(REALITY_MAX_CLIENT_VER);
      expect(versionValue(version)).toBeGreaterThanOrEqual(versionValue(reality.minClientVer));
      if (reality.maxClientVer !== '') {
        expect(versionValue(version)).toBeLessThanOrEqual(versionValue(reality.maxClientVer));
      }
    },
  );

  it('should refuse sing-box and mihomo when minClientVer is left at Xray 26.7.11+ default', () => {
    // The failure the explicit value avoids, stated so this spec can fail if the reading changes.
    expect(versionValue('1.8.1')).toBeLessThan(versionValue('26.3.27'));
    expect(versionValue('1.8.2')).toBeLessThan(versionValue('26.3.27'));
  });
});

describe('blockedTargetReason', () => {
  it.each([
    ['www.microsoft.com', /microsoft/],
    ['gateway.icloud.com', /icloud/],
    ['www.apple.com', /apple/],
    ['yandex.ru', /\.ru/],
    ['www.example.ir', /\.ir/],
    ['www.baidu.cn', /\.cn/],
    ['www.google.com', /google\.com is blocked/],
    ['t.me', /t\.me is blocked/],
    ['x.com', /x\.com is blocked/],
  ])('should name why %s is a poor target when it is on a block list', (host, reason) => {
    expect(blockedTargetReason(host)).toMatch(reason);
  });

  it.each(['www.example.com', 'box.com', 'netflix.company.org'])(
    'should pass %s when no rule names it',
    (host) => {
      expect(blockedTargetReason(host)).toBeNull();
    },
  );

  it('should pass every default candidate when checked by name', () => {
    expect(DEFAULT_REALITY_DEST).toBe(REALITY_TARGET_CANDIDATES[0]!.dest);
    for (const candidate of REALITY_TARGET_CANDIDATES) {
      expect(candidate.dest).toMatch(/^[a-z0-9.-]+:443$/);
      expect(blockedTargetReason(candidate.dest.replace(/:443$/, ''))).toBeNull();
      expect(candidate.why.length).toBeGreaterThan(20);
    }
  });
});
