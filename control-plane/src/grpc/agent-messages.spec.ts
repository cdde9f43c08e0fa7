import { reportRequestSchema } from './agent-messages';

function reportWith(publicHost: string) {
  return {
    agentVersion: '0.1.0',
    hardware: null,
    uptimeSeconds: '60',
    proxyCore: null,
    activeClients: 0,
    clientCountFailed: false,
    clientTraffic: [],
    pingMs: 5,
    publicHost,
    publicPort: 443,
    inbound: { security: 'none', sni: '', fp: '', pbk: '', sid: '', flow: '', network: 'tcp' },
    appliedClientSetVersion: '0',
  };
}

describe('reportRequestSchema publicHost', () => {
  it.each([
    ['[2001:DB8:0:0::7]', '2001:db8::7'],
    ['2001:db8::7', '2001:db8::7'],
    ['::1', '::1'],
    ['Node1.Example.NET', 'node1.example.net'],
    ['203.0.113.7', '203.0.113.7'],
  ])('should store %j as %j (canonical, so links can bracket it)', (sent, stored) => {
    expect(reportRequestSchema.parse(reportWith(sent)).publicHost).toBe(stored);
  });

  it.each(['[2001:db8::7', '2001:db8::7]', 'not a host!', '999.1.1.1', '[203.0.113.7]'])(
    'should refuse %j',
    (sent) => {
      const result = reportRequestSchema.safeParse(reportWith(sent));
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('must be a host name or IP address');
    },
  );
});
