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

describe('reportRequestSchema trafficBatchId', () => {
  it.each([
    ['', ''],
    ['4B1D6C1E-2F0A-4C55-9A57-0D9F6F0C8E21', '4b1d6c1e-2f0a-4c55-9a57-0d9f6f0c8e21'],
  ])('should accept %j as %j', (sent, stored) => {
    const report = { ...reportWith('node.example.net'), trafficBatchId: sent };
    expect(reportRequestSchema.parse(report).trafficBatchId).toBe(stored);
  });

  it('should default a missing id to empty (an agent from before the batch id)', () => {
    expect(reportRequestSchema.parse(reportWith('node.example.net')).trafficBatchId).toBe('');
  });

  it.each(['batch-1', '4b1d6c1e2f0a4c559a570d9f6f0c8e21', ' 4b1d6c1e-2f0a-4c55-9a57-0d9f6f0c8e21'])(
    'should refuse %j',
    (sent) => {
      const result = reportRequestSchema.safeParse({
        ...reportWith('node.example.net'),
        trafficBatchId: sent,
      });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(['trafficBatchId']);
      expect(result.error?.issues[0]?.message).toBe('must be empty or a UUID');
    },
  );
});
