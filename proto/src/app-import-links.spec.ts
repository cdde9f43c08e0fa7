import { IMPORT_APPS, appImportLinks } from './app-import-links';

describe('appImportLinks', () => {
  const url = 'https://scn.example/sub/abc?x=1&y=2';

  it('should give each app its documented scheme with the subscription URL and the name', () => {
    const links = appImportLinks(url, 'My VPN');
    const encoded = encodeURIComponent(url);
    expect(links.map((link) => link.id)).toEqual([...IMPORT_APPS]);
    expect(Object.fromEntries(links.map((link) => [link.id, link.href]))).toEqual({
      v2rayNG: `v2rayng://install-config?url=${encoded}#My%20VPN`,
      Hiddify: `hiddify://import/${url}#My%20VPN`,
      'sing-box': `sing-box://import-remote-profile?url=${encoded}#My%20VPN`,
      Clash: `clash://install-config?url=${encoded}&name=My%20VPN`,
      Streisand: `streisand://import/${url}#My%20VPN`,
    });
  });

  it('should encode a name that could break the link when it holds & or #', () => {
    for (const link of appImportLinks(url, 'a&b#c')) {
      expect(link.href).toContain('a%26b%23c');
    }
  });
});
