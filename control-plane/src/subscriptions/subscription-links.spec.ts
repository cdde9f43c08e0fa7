import { buildVlessLink, parseVlessLink } from '@scn/proto';
import { SHARE_LINK_CORPUS } from '../../test/support/share-link-corpus';
import { canonicallyEscaped, linkParts } from '../../test/support/link-oracle';
import { connectionString, type LinkedServer } from './subscription-links';

const SUBSCRIPTION_UUID = '7d3c1a55-0c2e-4f38-9a1b-2f9e0b6c4d21';

function agentServer(host: string, port = 443): LinkedServer {
  return {
    id: 'a',
    name: 'Agent node',
    source: 'agent',
    host,
    port,
    inbound: {
      security: 'reality',
      sni: 'www.example.com',
      fp: 'chrome',
      pbk: 'k',
      sid: '',
      flow: '',
      network: 'tcp',
    },
    vlessString: null,
    country: 'DE',
    premium: false,
  };
}

describe('connectionString', () => {
  it.each([
    ['2001:db8::1', '[2001:db8::1]'],
    ['::1', '[::1]'],
    // Rows written before hosts were canonical kept the brackets of the upload's URL.
    ['[2001:DB8::1]', '[2001:db8::1]'],
    ['203.0.113.7', '203.0.113.7'],
    ['node.example.net', 'node.example.net'],
  ])('should write an agent server at %j as a link new URL() reads (host %j)', (host, expected) => {
    const link = connectionString(agentServer(host, 8443), SUBSCRIPTION_UUID);
    const url = new URL(link);
    expect([url.hostname, url.port]).toEqual([expected, '8443']);
    expect(decodeURIComponent(url.username)).toBe(SUBSCRIPTION_UUID);
    expect(parseVlessLink(link)).not.toBeNull();
  });

  it('should leave out the inbound parameters a node reports empty', () => {
    const params = new URL(connectionString(agentServer('node.example.net'), SUBSCRIPTION_UUID))
      .searchParams;
    expect([...params.keys()]).toEqual(['encryption', 'security', 'sni', 'fp', 'pbk', 'type']);
  });

  it.each(['acme', 'operator'])(
    'should link a node with a %s certificate by its address and name, with no pin',
    (certificateSource) => {
      const server: LinkedServer = {
        ...agentServer('203.0.113.7'),
        inbound: {
          security: 'tls',
          sni: 'n0123456789abcdef.nodes.example.net',
          fp: 'chrome',
          pbk: '',
          sid: '',
          flow: '',
          network: 'tcp',
          certificateSha256: '',
          publicKeySha256: '',
          certificateSource,
          certificateName: 'n0123456789abcdef.nodes.example.net',
          certificateNotAfterMs: '1798761600000',
          certificateProblem: '',
        },
      };
      const url = new URL(connectionString(server, SUBSCRIPTION_UUID));
      // Clients dial the address and verify the certificate against the name they send as SNI.
      expect(url.hostname).toBe('203.0.113.7');
      expect(Object.fromEntries(url.searchParams)).toEqual({
        encryption: 'none',
        security: 'tls',
        sni: 'n0123456789abcdef.nodes.example.net',
        fp: 'chrome',
        type: 'tcp',
      });
    },
  );

  it('should still pin a self-signed certificate', () => {
    const server: LinkedServer = {
      ...agentServer('203.0.113.7'),
      inbound: {
        security: 'tls',
        sni: '203.0.113.7',
        network: 'tcp',
        certificateSha256: 'ab'.repeat(32),
        certificateSource: 'self_signed',
      },
    };
    const params = new URL(connectionString(server, SUBSCRIPTION_UUID)).searchParams;
    expect(params.get('pcs')).toBe('ab'.repeat(32));
    expect(params.get('allowInsecure')).toBeNull();
  });

  it('should still serve a manual link stored under older, looser rules', () => {
    // Accepted by the parser before the hardening (it checked only lengths and control characters).
    const stored = `vless://b831381d-6324-4d53-ad4f-8cda48b30811@[2001:db8::5]:443?security=xtls&sid=xyz&flow=xtls-rprx-direct&type=tcp#Old`;
    const served = connectionString(
      { ...agentServer('[2001:db8::5]'), name: 'Old', source: 'manual', vlessString: stored },
      SUBSCRIPTION_UUID,
    );
    expect(linkParts(served)).toEqual(linkParts(stored));
  });

  it.each(SHARE_LINK_CORPUS.map((entry) => [entry.label, entry.link]))(
    'should serve a manual server uploaded as "%s" with every parameter it came with',
    (_label, uploaded) => {
      // What upload stores (nodes.service.ts): the parsed link, built again with its name.
      const parsed = parseVlessLink(uploaded)!;
      const stored = buildVlessLink({ ...parsed, name: 'Garage box' });
      const served = connectionString(
        {
          ...agentServer(parsed.host, parsed.port),
          name: 'Garage box',
          source: 'manual',
          vlessString: stored,
        },
        SUBSCRIPTION_UUID,
      );
      expect(linkParts(served)).toEqual({ ...linkParts(uploaded), name: 'Garage box' });
      expect(canonicallyEscaped(served)).toBe(true);
    },
  );
});
