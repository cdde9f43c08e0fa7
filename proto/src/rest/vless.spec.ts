import { buildVlessLink, parseVlessLink } from './vless';

describe('VLESS links', () => {
  const link =
    'vless://0F9D7F5C-1A2B-4C3D-8E4F-0123456789AB@node.example.net:443?security=reality&sni=www.example.com&fp=chrome&pbk=abc&sid=12&flow=xtls-rprx-vision&type=tcp&junk=1#My%20Node';

  it('should parse a REALITY link and keep only the client parameters', () => {
    expect(parseVlessLink(link)).toEqual({
      uuid: '0f9d7f5c-1a2b-4c3d-8e4f-0123456789ab',
      host: 'node.example.net',
      port: 443,
      params: {
        security: 'reality',
        sni: 'www.example.com',
        fp: 'chrome',
        pbk: 'abc',
        sid: '12',
        flow: 'xtls-rprx-vision',
        type: 'tcp',
      },
      name: 'My Node',
    });
  });

  it('should make the name one line without control characters', () => {
    const parsed = parseVlessLink(
      'vless://0f9d7f5c-1a2b-4c3d-8e4f-0123456789ab@h.example:443#My%00%0ANode%09',
    );
    expect(parsed?.name).toBe('My Node');
  });

  it('should build back a link that parses to the same thing', () => {
    const parsed = parseVlessLink(link)!;
    expect(parseVlessLink(buildVlessLink(parsed))).toEqual(parsed);
  });

  it.each([
    '',
    'vmess://0f9d7f5c-1a2b-4c3d-8e4f-0123456789ab@h:443',
    'vless://not-a-uuid@h.example:443',
    'vless://0f9d7f5c-1a2b-4c3d-8e4f-0123456789ab@h.example',
    'vless://0f9d7f5c-1a2b-4c3d-8e4f-0123456789ab@h.example:70000',
    'vless://0f9d7f5c-1a2b-4c3d-8e4f-0123456789ab@bad_host!:443',
    'vless://0f9d7f5c-1a2b-4c3d-8e4f-0123456789ab@h.example:443#%',
    'vless://0f9d7f5c-1a2b-4c3d-8e4f-0123456789ab@h.example:443#%E0%A4',
    'vless://0f9d7f5c-1a2b-4c3d-8e4f-0123456789ab@h.example:443?sni=a%00b',
  ])('should refuse %j', (input) => {
    expect(parseVlessLink(input)).toBeNull();
  });
});
