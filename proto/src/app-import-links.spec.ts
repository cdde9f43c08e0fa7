import { IMPORT_APPS, appImportLinks, hiddifyImportLink } from './app-import-links';

describe('appImportLinks', () => {
  const url = 'https://scn.example/sub/abc?x=1&y=2';

  it('should give each app its documented scheme with the subscription URL and the name', () => {
    const links = appImportLinks(url, 'My VPN');
    const encoded = encodeURIComponent(url);
    expect(links.map((link) => link.id)).toEqual([...IMPORT_APPS]);
    expect(Object.fromEntries(links.map((link) => [link.id, link.href]))).toEqual({
      v2rayNG: `v2rayng://install-config?url=${encoded}#My%20VPN`,
      // Hiddify shows the fragment undecoded: no name, so its profile-title header names it.
      Hiddify: `hiddify://import/${url}`,
      'sing-box': `sing-box://import-remote-profile?url=${encoded}#My%20VPN`,
      Clash: `clash://install-config?url=${encoded}&name=My%20VPN`,
      Streisand: `streisand://import/${url}#My%20VPN`,
    });
  });

  it('should encode a name that could break the link when it holds & or #', () => {
    for (const link of appImportLinks(url, 'a&b#c')) {
      if (link.id === 'Hiddify') expect(link.href).toBe(`hiddify://import/${url}`);
      else expect(link.href).toContain('a%26b%23c');
    }
  });

  it.each([
    ['SCN', '#SCN'],
    ['SCN-Subscription_2', '#SCN-Subscription_2'],
    ['SCN Subscription (4 servers)', ''],
    ['اشتراک', ''],
    ['100%', ''],
  ])('should give Hiddify the name %j only when its fragment shows it as it is', (name, tail) => {
    expect(hiddifyImportLink(url, name)).toBe(`hiddify://import/${url}${tail}`);
    // What Hiddify shows: the fragment's text, undecoded (its LinkParser.deep).
    const fragment = new URL(hiddifyImportLink(url, name)).hash.slice(1);
    expect(fragment === '' || fragment === name).toBe(true);
  });
});
