import {
  buildVlessLink,
  canonicalHost,
  checkVlessLink,
  formatHostPort,
  parseVlessLink,
  urlHost,
} from './vless';

const ID = '0f9d7f5c-1a2b-4c3d-8e4f-0123456789ab';

describe('VLESS links', () => {
  const link =
    'vless://0F9D7F5C-1A2B-4C3D-8E4F-0123456789AB@node.example.net:443?security=reality&sni=www.example.com&fp=chrome&pbk=abc&sid=12&flow=xtls-rprx-vision&type=tcp&junk=1#My%20Node';

  it('should parse a REALITY link and keep every parameter, also the ones it does not model', () => {
    expect(parseVlessLink(link)).toEqual({
      uuid: ID,
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
        junk: '1',
      },
      name: 'My Node',
    });
  });

  it('should make the name one line without control characters', () => {
    const parsed = parseVlessLink(`vless://${ID}@h.example:443#My%00%0ANode%09`);
    expect(parsed?.name).toBe('My Node');
  });

  it('should build back a link that parses to the same thing', () => {
    const parsed = parseVlessLink(link)!;
    expect(parseVlessLink(buildVlessLink(parsed))).toEqual(parsed);
  });

  it('should keep unmodelled parameters byte for byte, empty ones included, in canonical escapes', () => {
    const uploaded =
      `vless://${ID}@cdn.example.net:443?type=xhttp&security=tls&sni=cdn.example.net` +
      '&alpn=h2%2Chttp%2F1.1&mode=packet-up&path=%2Fx%3Fed%3D2048&spx=&seed=hello+world' +
      '&extra=%7B%22xmux%22%3A%7B%22maxConcurrency%22%3A%2216-32%22%7D%7D&allowInsecure=1' +
      '&plus=a%2Bb&tilde=~ok#T%C5%8Dky%C5%8D%20%E6%9D%B1%E4%BA%AC%20%231';
    const parsed = parseVlessLink(uploaded)!;
    expect(parsed.params).toEqual({
      type: 'xhttp',
      security: 'tls',
      sni: 'cdn.example.net',
      alpn: 'h2,http/1.1',
      mode: 'packet-up',
      path: '/x?ed=2048',
      spx: '',
      seed: 'hello world',
      extra: '{"xmux":{"maxConcurrency":"16-32"}}',
      allowInsecure: '1',
      plus: 'a+b',
      tilde: '~ok',
    });
    expect(parsed.name).toBe('Tōkyō 東京 #1');
    const built = buildVlessLink(parsed);
    expect(built).toBe(
      `vless://${ID}@cdn.example.net:443?security=tls&sni=cdn.example.net&type=xhttp` +
        '&path=%2Fx%3Fed%3D2048&allowInsecure=1&alpn=h2%2Chttp%2F1.1' +
        '&extra=%7B%22xmux%22%3A%7B%22maxConcurrency%22%3A%2216-32%22%7D%7D&mode=packet-up' +
        '&plus=a%2Bb&seed=hello%20world&spx=&tilde=~ok#T%C5%8Dky%C5%8D%20%E6%9D%B1%E4%BA%AC%20%231',
    );
    expect(Object.fromEntries(new URL(built).searchParams)).toEqual(parsed.params);
  });

  it('should accept a bracketed IPv6 host, store it canonically and bracket it again', () => {
    const parsed = parseVlessLink(`vless://${ID}@[2001:DB8:0:0:0:0:0:1]:8443?type=tcp#v6`)!;
    expect(parsed.host).toBe('2001:db8::1');
    const built = buildVlessLink(parsed);
    expect(built).toBe(`vless://${ID}@[2001:db8::1]:8443?type=tcp#v6`);
    const url = new URL(built);
    expect([url.hostname, url.port]).toEqual(['[2001:db8::1]', '8443']);
  });

  it('should bracket a bare IPv6 host when it builds a link, so that new URL() reads it', () => {
    for (const host of ['::1', '2001:db8::1', '[2001:db8::1]', 'fe80::1:2']) {
      const built = buildVlessLink({ uuid: ID, host, port: 443, params: {}, name: 'n' });
      const url = new URL(built);
      expect(url.hostname).toBe(`[${canonicalHost(host)}]`);
      expect(url.port).toBe('443');
      expect(parseVlessLink(built)?.host).toBe(canonicalHost(host));
    }
  });

  it('should read a stored link without checking its values when asked to', () => {
    const stored = `vless://${ID}@h.example:443?security=xtls&flow=xtls-rprx-direct`;
    expect(parseVlessLink(stored)).toBeNull();
    expect(parseVlessLink(stored, { checkValues: false })?.params).toEqual({
      security: 'xtls',
      flow: 'xtls-rprx-direct',
    });
    // Structure is still checked: a second `type` is no link at all.
    expect(parseVlessLink(`${stored}&type=ws&type=tcp`, { checkValues: false })).toBeNull();
  });

  it('should leave the name out when there is none', () => {
    expect(buildVlessLink({ uuid: ID, host: 'h.example', port: 1, params: {}, name: '' })).toBe(
      `vless://${ID}@h.example:1`,
    );
  });

  it.each([
    ['', 'vless://'],
    [`vmess://${ID}@h:443`, 'vless://'],
    ['vless://not-a-uuid@h.example:443', 'UUID'],
    [`vless://${ID}@h.example`, 'port'],
    [`vless://${ID}@h.example:70000`, 'URL'],
    [`vless://${ID}@bad_host!:443`, 'host'],
    [`vless://${ID}@2001:db8::1:443`, 'bracket'],
    [`vless://${ID}@999.1.1.1:443`, 'host'],
    [`vless://${ID}@1.2.3:443`, 'host'],
    [`vless://${ID}@h.example:443#%`, '#'],
    [`vless://${ID}@h.example:443#%E0%A4`, '#'],
    [`vless://${ID}@h.example:443?sni=a%00b`, 'sni'],
    [`vless://${ID}@h.example:443?path=a%00b`, 'control'],
    [`vless://${ID}@h.example:443?security=xtls`, 'security'],
    [`vless://${ID}@h.example:443?type=carrier-pigeon`, 'type'],
    [`vless://${ID}@h.example:443?sid=xyz`, 'sid'],
    [`vless://${ID}@h.example:443?flow=fast`, 'flow'],
    [`vless://${ID}@h.example:443?type=ws&type=grpc`, 'twice'],
    [`vless://${ID}@h.example:443?__proto__=1`, 'invalid'],
    [`vless://${ID}@h.example:443?a%20b=1`, 'invalid'],
    [`vless://${ID}@h.example:443?x=%E0%A4`, '%-escape'],
    [`vless://${ID}@h.example:443?extra=${'a'.repeat(2049)}`, 'longer'],
  ])('should refuse a bad link and say why (case %#)', (input, why) => {
    const checked = checkVlessLink(input);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.problem).toContain(why);
    expect(parseVlessLink(input)).toBeNull();
  });
});

describe('canonicalHost', () => {
  it.each([
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['[2001:db8::1]', '2001:db8::1'],
    ['::1', '::1'],
    ['[::]', '::'],
    ['203.0.113.7', '203.0.113.7'],
    ['Node.Example.NET', 'node.example.net'],
    ['百度.cn', 'xn--wxtr44c.cn'],
    ['%E7%99%BE%E5%BA%A6.cn', 'xn--wxtr44c.cn'],
  ])('should write %j as %j', (input, canonical) => {
    expect(canonicalHost(input)).toBe(canonical);
  });

  it.each([
    '',
    '[2001:db8::1',
    '2001:db8::1]',
    '[203.0.113.7]',
    'fe80::1%eth0',
    '1:2:3:4:5:6:7:8:9',
    '256.1.1.1',
    '01.2.3.4',
    '0x7f.1',
    'a..b',
    '-a.example',
    'a b.example',
    'user@host',
  ])('should refuse %j', (input) => {
    expect(canonicalHost(input)).toBeNull();
  });

  it('should write host:port with IPv6 in brackets', () => {
    expect(formatHostPort('2001:db8::1', 443)).toBe('[2001:db8::1]:443');
    expect(formatHostPort('node.example.net', 443)).toBe('node.example.net:443');
    expect(urlHost('[::1]')).toBe('[::1]');
  });
});
