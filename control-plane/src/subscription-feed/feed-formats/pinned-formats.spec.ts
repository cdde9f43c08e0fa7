import { parseVlessLink } from '@scn/proto';
import { parse } from 'yaml';
import { clashConfig, singBoxConfig, xrayConfig } from '../../../test/support/feed-schemas';
import { itNeeding } from '../../../test/support/requirements';
import { selfSigned } from '../../../test/support/self-signed';
import { v2rayTest } from '../../../test/support/v2ray-test';
import { connectionString, type LinkedServer } from '../../subscriptions/subscription-links';
import { clientAppOf } from './client-app';
import { renderFeed } from './render-feed';
import { feedServers, renderClash, renderSingBox, renderXray } from './renderers';

const UUID = '7d3c1a55-0c2e-4f38-9a1b-2f9e0b6c4d21';
const PBK = 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw';
const cert = selfSigned('node.example.net');
const itWithV2ray = itNeeding(['v2ray'], 'v2ray -test of a pinned feed');

/** An agent node as the subscriptions read it, with its reported inbound. */
function agentNode(inbound: Record<string, string>, certificatePem: string | null = null) {
  const server: LinkedServer = {
    id: 'c9a4b1de-0000-4000-8000-000000000001',
    name: 'Node',
    source: 'agent',
    host: 'node.example.net',
    port: 24567,
    inbound,
    certificatePem,
    vlessString: null,
    country: 'DE',
    premium: false,
  };
  return server;
}

const tls = (network: string, extra: Record<string, string> = {}) => ({
  security: 'tls',
  sni: 'node.example.net',
  fp: '',
  pbk: '',
  sid: '',
  flow: '',
  network,
  path: '',
  serviceName: '',
  certificateSha256: cert.certificateSha256,
  publicKeySha256: cert.publicKeySha256,
  planRevision: '2',
  ...extra,
});

/** A REALITY inbound with the Vision flow, as an agent reports it. */
const REALITY = {
  security: 'reality',
  sni: 'www.microsoft.com',
  fp: 'chrome',
  pbk: PBK,
  sid: '6ba85179',
  flow: 'xtls-rprx-vision',
  network: 'tcp',
};

/** The outbound tags of a v2ray 4.34 config: only the fixed ones when every server is left out. */
const V2RAY_FIXED_TAGS = ['direct', 'block', 'dns-out'];
function v2rayTags(servers: ReturnType<typeof feedServers>): string[] {
  return JSON.parse(renderXray(servers, { core: 'v2ray', remarks: 'R' })).outbounds.map(
    (o: { tag: string }) => o.tag,
  );
}

describe('share links of agent nodes', () => {
  it.each([
    {
      name: 'TLS over WebSocket its sni, fp=chrome, path and the pcs pin, never allowInsecure',
      inbound: tls('ws', { path: '/a1b2c3' }),
      params: {
        encryption: 'none',
        security: 'tls',
        sni: 'node.example.net',
        fp: 'chrome',
        type: 'ws',
        path: '/a1b2c3',
        pcs: cert.certificateSha256,
      },
    },
    {
      name: 'TLS over gRPC its serviceName and mode=gun',
      inbound: tls('grpc', { serviceName: 'b7e9' }),
      params: {
        encryption: 'none',
        security: 'tls',
        sni: 'node.example.net',
        fp: 'chrome',
        type: 'grpc',
        serviceName: 'b7e9',
        mode: 'gun',
        pcs: cert.certificateSha256,
      },
    },
    {
      name: 'REALITY pbk, sid, sni, fp and the Vision flow, and no pin',
      inbound: {
        ...REALITY,
        path: '',
        serviceName: '',
        certificateSha256: '',
        publicKeySha256: '',
        planRevision: '1',
      },
      params: {
        encryption: 'none',
        security: 'reality',
        sni: 'www.microsoft.com',
        fp: 'chrome',
        pbk: PBK,
        sid: '6ba85179',
        flow: 'xtls-rprx-vision',
        type: 'tcp',
      },
    },
  ])('should give $name', ({ inbound, params }) => {
    const link = connectionString(agentNode(inbound), UUID);
    expect(parseVlessLink(link)?.params).toEqual(params);
    expect(link).not.toMatch(/allowInsecure|insecure=/i);
  });
});

describe('every format from a pinned TLS link', () => {
  const wsNode = agentNode(tls('ws', { path: '/a1b2c3' }), cert.certificatePem);
  const grpcNode = agentNode(tls('grpc', { serviceName: 'b7e9' }), cert.certificatePem);
  const links = [connectionString(wsNode, UUID), connectionString(grpcNode, UUID)];
  const certificates = new Map([[cert.certificateSha256, cert.certificatePem]]);

  it('should trust the certificate itself in sing-box, with the ws and grpc transports', () => {
    const config = singBoxConfig.parse(JSON.parse(renderSingBox(feedServers(links, certificates))));
    const [ws, grpc] = config.outbounds.filter((o) => o.type === 'vless');
    expect(ws).toMatchObject({
      server_port: 24567,
      tls: {
        server_name: 'node.example.net',
        certificate: cert.certificatePem,
        utls: { fingerprint: 'chrome' },
      },
      transport: { type: 'ws', path: '/a1b2c3' },
    });
    expect(grpc).toMatchObject({ transport: { type: 'grpc', service_name: 'b7e9' } });
  });

  it('should pin the SHA-256 in mihomo (fingerprint) with servername, ws-opts and grpc-opts', () => {
    const config = clashConfig.parse(parse(renderClash(feedServers(links, certificates))));
    expect(config.proxies[0]).toMatchObject({
      tls: true,
      servername: 'node.example.net',
      fingerprint: cert.certificateSha256,
      'client-fingerprint': 'chrome',
      'ws-opts': { path: '/a1b2c3' },
    });
    expect(config.proxies[1]).toMatchObject({
      fingerprint: cert.certificateSha256,
      'grpc-opts': { 'grpc-service-name': 'b7e9' },
    });
    expect(JSON.stringify(config)).not.toMatch(/skip-cert-verify/);
  });

  it('should pin pinnedPeerCertSha256 in Xray JSON for v2rayNG 2.0.7, without allowInsecure', () => {
    const text = renderXray(feedServers(links, certificates), {
      core: 'xray',
      remarks: 'R',
      client: clientAppOf('v2rayNG/2.0.7'),
    });
    const config = xrayConfig.parse(JSON.parse(text));
    const tlsSettings = config.outbounds
      .filter((o) => o.protocol === 'vless')
      .map((o) => ('streamSettings' in o ? o.streamSettings.tlsSettings : undefined));
    const pinned = {
      serverName: 'node.example.net',
      fingerprint: 'chrome',
      pinnedPeerCertSha256: cert.certificateSha256,
    };
    expect(tlsSettings).toEqual([pinned, pinned]);
    expect(text).not.toMatch(/allowInsecure/);
  });

  itWithV2ray(
    'should trust only the certificate in v2ray 4.34 JSON (no gRPC there), which v2ray accepts',
    () => {
      const body = renderFeed('v2ray', links, 'R', certificates).body;
      const config = JSON.parse(body);
      const vless = config.outbounds.filter((o: { protocol: string }) => o.protocol === 'vless');
      expect(vless).toHaveLength(1);
      expect(vless[0].streamSettings).toEqual({
        network: 'ws',
        security: 'tls',
        tlsSettings: {
          serverName: 'node.example.net',
          disableSystemRoot: true,
          certificates: [{ usage: 'verify', certificate: cert.certificatePem.trim().split('\n') }],
        },
        wsSettings: { path: '/a1b2c3' },
      });
      expect(v2rayTest(body)).toMatch(/Configuration OK/);
    },
  );

  it('should leave a pinned server out of sing-box and v2ray when the feed lacks its certificate', () => {
    const servers = feedServers(links);
    expect(
      JSON.parse(renderSingBox(servers)).outbounds.filter(
        (o: { type: string }) => o.type === 'vless',
      ),
    ).toEqual([]);
    expect(v2rayTags(servers)).toEqual(V2RAY_FIXED_TAGS);
    // mihomo and the Xray cores that read the pin use the hash, which the link carries.
    expect(clashConfig.parse(parse(renderClash(servers))).proxies).toHaveLength(2);
    const pinReader = { core: 'xray', remarks: 'R', client: clientAppOf('v2rayN/7.17.1') } as const;
    expect(JSON.parse(renderXray(servers, pinReader)).outbounds).toHaveLength(5);
    // An older core would ignore the pin and refuse the certificate: left out.
    const older = { core: 'xray', remarks: 'R', client: clientAppOf('v2rayN/7.17.0') } as const;
    expect(JSON.parse(renderXray(servers, older)).outbounds).toHaveLength(3);
  });

  it('should round-trip the REALITY parameters and the Vision flow through every format', () => {
    const reality = connectionString(agentNode(REALITY), UUID);
    const servers = feedServers([reality]);
    const singBox = JSON.parse(renderSingBox(servers)).outbounds[2];
    expect(singBox).toMatchObject({
      flow: 'xtls-rprx-vision',
      tls: {
        server_name: 'www.microsoft.com',
        utls: { fingerprint: 'chrome' },
        reality: { public_key: PBK, short_id: '6ba85179' },
      },
    });
    const clash = clashConfig.parse(parse(renderClash(servers))).proxies[0];
    expect(clash).toMatchObject({
      flow: 'xtls-rprx-vision',
      servername: 'www.microsoft.com',
      'client-fingerprint': 'chrome',
      'reality-opts': { 'public-key': PBK, 'short-id': '6ba85179' },
    });
    const xray = JSON.parse(renderXray(servers, { core: 'xray', remarks: 'R' })).outbounds[0];
    expect(xray.settings.vnext[0].users[0].flow).toBe('xtls-rprx-vision');
    expect(xray.streamSettings.realitySettings).toMatchObject({
      serverName: 'www.microsoft.com',
      fingerprint: 'chrome',
      publicKey: PBK,
      shortId: '6ba85179',
    });
    // v2ray 4.34 has no REALITY: left out rather than written as something else.
    expect(v2rayTags(servers)).toEqual(V2RAY_FIXED_TAGS);
  });
});
