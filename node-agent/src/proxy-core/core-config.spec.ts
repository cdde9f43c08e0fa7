import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  API_TAG,
  FRONT_INBOUND_TAG,
  WS_SOCKET_FILE,
  buildCoreConfig,
  type CoreConfigInput,
  normalizeClientUuids,
  type CoreConfigJson,
  VLESS_INBOUND_TAG,
  writeCoreConfig,
} from './core-config';
import { inAnyCidr } from './destination-policy';
import { NON_PUBLIC_PROBES, PUBLIC_PROBES } from './destination-probes.fixture';
import { ProxyCoreException } from './proxy-core.exception';

const UUID_A = '6f1c1f1e-2a51-4f34-9a4b-0c1d2e3f4a5b';
const UUID_B = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

function input(overrides: Partial<CoreConfigInput> = {}): CoreConfigInput {
  return {
    kind: 'v2ray',
    apiPort: 10085,
    allowedUuids: [UUID_A, UUID_B],
    inbound: { port: 443, security: 'none', network: 'tcp' },
    ...overrides,
  };
}

/**
 * The core's routing decision for a client destination, as v2ray 4.34 and Xray take it: the
 * first rule of the VLESS inbound whose conditions all hold. A name is resolved first
 * (IPOnDemand) through the core's DNS, whose answers are filtered to `expectIPs`; a name left
 * with no address matches no IP rule. The core turns an IPv4-mapped IPv6 destination into its
 * IPv4 address before routing (seen live in tunnel-isolation.e2e-spec.ts).
 */
function route(
  config: CoreConfigJson,
  destination: { ip: string; port: number } | { resolvesTo: string[]; port: number },
): string {
  const ips =
    'ip' in destination ? [unmap(destination.ip)] : resolve(config, destination.resolvesTo);
  for (const rule of config.routing.rules) {
    if (!rule.inboundTag.includes(VLESS_INBOUND_TAG)) continue;
    if (rule.port !== undefined && rule.port !== String(destination.port)) continue;
    if (rule.ip !== undefined && !ips.some((ip) => inAnyCidr(ip, rule.ip!))) continue;
    return rule.outboundTag;
  }
  return config.outbounds[0]!.tag;
}

function resolve(config: CoreConfigJson, answers: string[]): string[] {
  const allowed = config.dns.servers[0]!.expectIPs;
  return answers.map(unmap).filter((ip) => inAnyCidr(ip, allowed));
}

function unmap(ip: string): string {
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1] ?? ip;
}

function errorCode(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ProxyCoreException) return error.code;
    throw error;
  }
  return undefined;
}

describe('buildCoreConfig', () => {
  it('should list every allowed uuid as a VLESS client keyed by email when built', () => {
    const config = buildCoreConfig(input({ allowedUuids: [UUID_A.toUpperCase(), UUID_B, UUID_A] }));
    const vless = config.inbounds.find((inbound) => inbound.tag === VLESS_INBOUND_TAG)!;

    expect(vless.protocol).toBe('vless');
    expect(vless.port).toBe(443);
    expect(vless.listen).toBe('0.0.0.0');
    expect(vless.settings).toEqual({
      decryption: 'none',
      clients: [
        { id: UUID_B, email: UUID_B, level: 0 },
        { id: UUID_A, email: UUID_A, level: 0 },
      ],
    });
    expect(vless.streamSettings).toEqual({ network: 'tcp', security: 'none' });
  });

  it('should serve an empty client list when no uuid is allowed', () => {
    const config = buildCoreConfig(input({ allowedUuids: [] }));
    expect(config.inbounds[0]!.settings).toEqual({ decryption: 'none', clients: [] });
  });

  it('should expose HandlerService and StatsService on loopback only when built', () => {
    const config = buildCoreConfig(input({ apiPort: 18080 }));
    const api = config.inbounds.find((inbound) => inbound.tag === API_TAG)!;

    expect(api).toEqual({
      tag: 'api',
      listen: '127.0.0.1',
      port: 18080,
      protocol: 'dokodemo-door',
      settings: { address: '127.0.0.1' },
    });
    expect(config.api).toEqual({ tag: 'api', services: ['HandlerService', 'StatsService'] });
    expect(config.routing.rules[0]).toEqual({
      type: 'field',
      inboundTag: ['api'],
      outboundTag: 'api',
    });
  });

  it('should enable per-user uplink and downlink stats when built', () => {
    const config = buildCoreConfig(input());
    expect(config.stats).toEqual({});
    expect(config.policy.levels['0']).toMatchObject({
      statsUserUplink: true,
      statsUserDownlink: true,
    });
  });

  it('should resolve names before routing and dial with the core DNS when built', () => {
    const config = buildCoreConfig(input());
    expect(config.routing.domainStrategy).toBe('IPOnDemand');
    expect(config.outbounds[0]).toEqual({
      tag: 'direct',
      protocol: 'freedom',
      settings: { domainStrategy: 'UseIPv4' },
    });
    expect(config.dns.servers).toEqual([{ address: 'localhost', expectIPs: expect.any(Array) }]);
  });

  it('should ask the node nameservers over UDP when the core is v2ray', () => {
    const config = buildCoreConfig(
      input({ nameservers: ['10.255.255.53', '[2001:4860:4860::8888]:53', '127.0.0.1:5353'] }),
    );
    expect(config.dns.servers.map(({ address, port }) => ({ address, port }))).toEqual([
      { address: '10.255.255.53', port: 53 },
      { address: '2001:4860:4860::8888', port: 53 },
      { address: '127.0.0.1', port: 5353 },
    ]);
    // Each answer is filtered the same way.
    expect(new Set(config.dns.servers.map((server) => server.expectIPs.length)).size).toBe(1);
  });

  it('should keep the system resolver when the core is Xray or no nameserver is known', () => {
    for (const config of [
      buildCoreConfig(input({ kind: 'xray', nameservers: ['10.255.255.53'] })),
      buildCoreConfig(input({ nameservers: [] })),
    ]) {
      expect(config.dns.servers).toEqual([{ address: 'localhost', expectIPs: expect.any(Array) }]);
    }
  });

  it('should dial IPv6 answers only when the node has a global IPv6 address', () => {
    const withV6 = buildCoreConfig(input({ ownAddresses: ['2a01:4f8::5/128'] }));
    expect(withV6.outbounds[0]!.settings).toEqual({ domainStrategy: 'UseIP' });
  });

  it('should make Xray fail a name it cannot resolve instead of dialing it when built', () => {
    expect(buildCoreConfig(input({ kind: 'xray' })).outbounds[0]!.settings).toEqual({
      domainStrategy: 'ForceIPv4',
    });
    expect(
      buildCoreConfig(input({ kind: 'xray', ownAddresses: ['2a01:4f8::5/128'] })).outbounds[0]!
        .settings,
    ).toEqual({ domainStrategy: 'ForceIP' });
  });

  it('should route every client destination through the allow-list and block the rest', () => {
    const rules = buildCoreConfig(input()).routing.rules;
    expect(rules.at(-1)).toEqual({
      type: 'field',
      inboundTag: [VLESS_INBOUND_TAG],
      outboundTag: 'blocked',
    });
    // Only the API's own rule sends anything anywhere without naming the VLESS inbound.
    expect(rules.filter((rule) => !rule.inboundTag.includes(VLESS_INBOUND_TAG))).toEqual([
      { type: 'field', inboundTag: ['api'], outboundTag: 'api' },
    ]);
  });

  describe.each(['v2ray', 'xray'] as const)('routing of a %s node', (kind) => {
    const own = ['203.0.113.77/32', '8.8.4.4/32', '2a01:4f8::5/128', '127.0.0.1/32'];
    const config = buildCoreConfig(input({ kind, apiPort: 18080, ownAddresses: own }));

    it.each(NON_PUBLIC_PROBES)('should block %s by literal', (address) => {
      expect(route(config, { ip: address, port: 443 })).toBe('blocked');
    });

    it.each(NON_PUBLIC_PROBES)('should block a name resolving to %s', (address) => {
      expect(route(config, { resolvesTo: [address], port: 443 })).toBe('blocked');
    });

    it.each(PUBLIC_PROBES)('should send %s out directly', (address) => {
      expect(route(config, { ip: address, port: 443 })).toBe('direct');
      expect(route(config, { resolvesTo: [address], port: 443 })).toBe('direct');
    });

    it.each(['8.8.4.4', '2a01:4f8::5'])(
      'should block the node own public address %s',
      (address) => {
        expect(route(config, { ip: address, port: 22 })).toBe('blocked');
        expect(route(config, { resolvesTo: [address], port: 22 })).toBe('blocked');
      },
    );

    it('should keep only the public answers of a name that also resolves privately', () => {
      expect(route(config, { resolvesTo: ['10.0.0.1', '1.1.1.1'], port: 443 })).toBe('direct');
      expect(resolve(config, ['10.0.0.1', '1.1.1.1', '::1'])).toEqual(['1.1.1.1']);
    });

    it('should block the API port on every loopback spelling', () => {
      for (const ip of ['127.0.0.1', '127.0.0.2', '0.0.0.0', '::1', '::', '::ffff:127.0.0.1']) {
        expect(route(config, { ip, port: 18080 })).toBe('blocked');
      }
    });
  });

  it('should let tests reach loopback but never the API port when private destinations are allowed', () => {
    const config = buildCoreConfig(input({ apiPort: 18080, allowPrivateDestinations: true }));
    expect(route(config, { ip: '127.0.0.1', port: 8080 })).toBe('direct');
    expect(route(config, { ip: '10.0.0.1', port: 8080 })).toBe('direct');
    for (const ip of ['127.0.0.1', '0.0.0.0', '::1', '::', '::ffff:127.0.0.1']) {
      expect(route(config, { ip, port: 18080 })).toBe('blocked');
    }
    // Names still never resolve to loopback, so `localhost:18080` has no address at all.
    expect(resolve(config, ['127.0.0.1', '::1'])).toEqual([]);
    expect(route(config, { resolvesTo: ['127.0.0.1'], port: 18080 })).toBe('blocked');
  });

  it('should let an allowed test host through but never the node own address next to it', () => {
    const config = buildCoreConfig(
      input({ allowedDestinationCidrs: ['198.51.100.0/24'], ownAddresses: ['198.51.100.1/32'] }),
    );
    expect(route(config, { ip: '198.51.100.2', port: 80 })).toBe('direct');
    expect(route(config, { ip: '198.51.100.1', port: 80 })).toBe('blocked');
    expect(route(config, { ip: '10.0.0.1', port: 80 })).toBe('blocked');
  });

  it('should leave static DNS names to the routing rules when tests map one', () => {
    const config = buildCoreConfig(input({ dnsHosts: { 'loopback.test': '127.0.0.1' } }));
    expect(config.dns.hosts).toEqual({ 'loopback.test': '127.0.0.1' });
    expect(route(config, { ip: '127.0.0.1', port: 80 })).toBe('blocked');
  });

  it('should reference the certificate files when security is tls', () => {
    const config = buildCoreConfig(
      input({
        inbound: {
          port: 443,
          security: 'tls',
          network: 'tcp',
          sni: 'node.example.com',
          certificateFile: '/etc/scn/cert.pem',
          keyFile: '/etc/scn/key.pem',
        },
      }),
    );
    expect(config.inbounds[0]!.streamSettings).toEqual({
      network: 'tcp',
      security: 'tls',
      tlsSettings: {
        serverName: 'node.example.com',
        certificates: [{ certificateFile: '/etc/scn/cert.pem', keyFile: '/etc/scn/key.pem' }],
      },
    });
  });

  it('should refuse tls when the certificate files are missing', () => {
    const run = () =>
      buildCoreConfig(input({ inbound: { port: 443, security: 'tls', network: 'tcp' } }));
    expect(errorCode(run)).toBe('tls_needs_certificate');
  });

  it('should refuse REALITY when the core is v2ray', () => {
    const reality = {
      port: 443,
      security: 'reality',
      network: 'tcp',
      sni: 'www.example.com',
      realityPrivateKey: 'cHJpdmF0ZS1rZXk',
    } as const;
    const run = () => buildCoreConfig(input({ kind: 'v2ray', inbound: reality }));
    expect(errorCode(run)).toBe('reality_needs_xray');
    expect(run).toThrow(/unencrypted/);
  });

  it('should refuse REALITY when the private key is missing', () => {
    const run = () =>
      buildCoreConfig(
        input({
          kind: 'xray',
          inbound: { port: 443, security: 'reality', network: 'tcp', sni: 'www.example.com' },
        }),
      );
    expect(errorCode(run)).toBe('reality_needs_private_key');
  });

  it('should build realitySettings when the core is xray', () => {
    const config = buildCoreConfig(
      input({
        kind: 'xray',
        inbound: {
          port: 443,
          security: 'reality',
          network: 'tcp',
          sni: 'www.example.com',
          sid: 'ab12',
          flow: 'xtls-rprx-vision',
          realityPrivateKey: 'cHJpdmF0ZS1rZXk',
        },
      }),
    );
    const vless = config.inbounds[0]!;
    expect(vless.streamSettings).toEqual({
      network: 'tcp',
      security: 'reality',
      realitySettings: {
        show: false,
        dest: 'www.example.com:443',
        xver: 0,
        serverNames: ['www.example.com'],
        privateKey: 'cHJpdmF0ZS1rZXk',
        minClientVer: '1.8.0',
        maxClientVer: '',
        shortIds: ['ab12'],
      },
    });
    expect(vless.settings.clients).toContainEqual({
      id: UUID_A,
      email: UUID_A,
      level: 0,
      flow: 'xtls-rprx-vision',
    });
  });
});

describe('buildCoreConfig: VLESS fallbacks (active probing)', () => {
  const tls = {
    port: 443,
    security: 'tls' as const,
    certificateFile: '/etc/scn-agent/tls/certificate.pem',
    keyFile: '/etc/scn-agent/tls/key.pem',
  };

  it('should hand what is not VLESS to the decoy when the inbound is tcp + TLS', () => {
    const config = buildCoreConfig(
      input({ inbound: { ...tls, network: 'tcp' }, fallbackDest: '127.0.0.1:38080' }),
    );
    expect(config.inbounds[0]!.settings).toMatchObject({
      decryption: 'none',
      fallbacks: [{ dest: '127.0.0.1:38080', xver: 0 }],
    });
  });

  it('should put ws behind a TLS front that falls back by path when the inbound is ws + TLS', () => {
    const config = buildCoreConfig(
      input({
        inbound: { ...tls, network: 'ws', path: '/0123456789abcdef', sni: 'node.example' },
        fallbackDest: '127.0.0.1:38080',
        socketDir: '/var/lib/scn-agent/core',
      }),
    );
    const [front, ws] = config.inbounds;
    expect(front).toEqual({
      tag: FRONT_INBOUND_TAG,
      listen: '0.0.0.0',
      port: 443,
      protocol: 'vless',
      settings: {
        clients: [],
        decryption: 'none',
        fallbacks: [
          {
            path: '/0123456789abcdef',
            dest: `/var/lib/scn-agent/core/${WS_SOCKET_FILE}`,
            xver: 0,
          },
          { dest: '127.0.0.1:38080', xver: 0 },
        ],
      },
      streamSettings: {
        network: 'tcp',
        security: 'tls',
        tlsSettings: {
          serverName: 'node.example',
          alpn: ['http/1.1'],
          certificates: [{ certificateFile: tls.certificateFile, keyFile: tls.keyFile }],
        },
      },
    });
    // The users, and so the API, the stats and the routing rules, stay on the ws inbound.
    expect(ws).toMatchObject({
      tag: VLESS_INBOUND_TAG,
      listen: `/var/lib/scn-agent/core/${WS_SOCKET_FILE}`,
      streamSettings: {
        network: 'ws',
        security: 'none',
        wsSettings: { path: '/0123456789abcdef' },
      },
    });
    expect(ws).not.toHaveProperty('port');
    expect((ws!.settings.clients as unknown[]).length).toBe(2);
  });

  it.each([
    ['tls over ws without a socket folder', { ...tls, network: 'ws' as const, path: '/abc' }],
    ['plaintext tcp', { port: 443, security: 'none' as const, network: 'tcp' as const }],
  ])('should give no fallback when the inbound is %s', (_name, inbound) => {
    const config = buildCoreConfig(input({ inbound, fallbackDest: '127.0.0.1:38080' }));
    expect(config.inbounds[0]!.settings).not.toHaveProperty('fallbacks');
    expect(config.inbounds[0]!.tag).toBe(VLESS_INBOUND_TAG);
  });

  it('should give no fallback to REALITY, whose target answers strangers', () => {
    const config = buildCoreConfig(
      input({
        kind: 'xray',
        inbound: {
          port: 443,
          security: 'reality',
          network: 'tcp',
          sni: 'www.example.com',
          realityPrivateKey: 'cHJpdmF0ZS1rZXk',
        },
        fallbackDest: '127.0.0.1:38080',
      }),
    );
    expect(config.inbounds[0]!.settings).not.toHaveProperty('fallbacks');
  });

  it('should refuse a fallback that is not host:port', () => {
    const run = () =>
      buildCoreConfig(input({ inbound: { ...tls, network: 'tcp' }, fallbackDest: 'http://x/' }));
    expect(errorCode(run)).toBe('invalid_fallback');
  });
});

describe('normalizeClientUuids', () => {
  it('should refuse a malformed uuid when normalizing', () => {
    expect(errorCode(() => normalizeClientUuids([UUID_A, 'not-a-uuid']))).toBe(
      'invalid_client_uuid',
    );
  });
});

describe('writeCoreConfig', () => {
  let workDir: string;

  beforeEach(async () => {
    workDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'scn-core-config-')), 'core');
  });

  afterEach(async () => {
    await rm(path.dirname(workDir), { recursive: true, force: true });
  });

  it('should write the config with mode 0600 in a 0700 folder when called', async () => {
    const file = await writeCoreConfig(workDir, buildCoreConfig(input()));

    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(workDir)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(buildCoreConfig(input()));
  });

  it('should leave mode 0600 when the file existed with a wider mode', async () => {
    const file = await writeCoreConfig(workDir, buildCoreConfig(input()));
    await chmod(file, 0o644);

    await writeCoreConfig(workDir, buildCoreConfig(input({ allowedUuids: [] })));

    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});
