import type { NodeAddressCache } from '../node-dns/node-address-cache';
import type { RealtimeGateway } from '../realtime/realtime.gateway';
import type { AgentAuthService } from './agent-auth.service';
import { PresentedCredential } from './agent-auth.service';
import type { AgentReportRepository } from './agent-report.repository';
import { type AgentReport, AgentReportsService } from './agent-reports.service';
import type { AgentServer, AgentServerRepository } from '../nodes/agent-server.repository';

const ID = '11111111-1111-4111-8111-111111111111';
const now = new Date('2026-11-10T12:00:00.000Z');
const credential = new PresentedCredential(ID, `${ID}.secret`);

const server: AgentServer = {
  id: ID,
  tier: 'tier1',
  host: 'h.example',
  port: 443,
  hostName: 'n0123456789abcdef',
  reliabilityAtReport: 90,
  lastReportAt: new Date(now.getTime() - 60_000),
  lastCreditedAt: null,
  belowThresholdSince: null,
  bannedAt: null,
  version: '7',
  secretDigest: Buffer.alloc(32),
};

const report: AgentReport = {
  agentVersion: '1.0.0',
  hardware: null,
  uptimeSeconds: '10',
  proxyCore: { state: 'PROXY_CORE_STATE_RUNNING' },
  activeClients: 1,
  clientCountFailed: false,
  clientTraffic: [
    { clientUuid: '22222222-2222-4222-8222-222222222222', uplinkBytes: '5', downlinkBytes: '6' },
  ],
  pingMs: 0,
  publicHost: 'h.example',
  publicPort: 443,
  inbound: { security: 'tls' },
  appliedClientSetVersion: '3',
  trafficBatchId: '',
};

function setup(versions: Array<string | null>) {
  const writes = [...versions];
  const reports = { write: jest.fn(async () => writes.shift() ?? null) };
  const servers = {
    remember: jest.fn(),
    forget: jest.fn(),
    assignHostName: jest.fn(async () => true),
  };
  const auth = { authenticate: jest.fn(async () => ({ ...server, version: '8' })) };
  const realtime = { serverListUpdated: jest.fn() };
  const nodeAddresses = { forget: jest.fn() };
  const service = new AgentReportsService(
    auth as unknown as AgentAuthService,
    reports as unknown as AgentReportRepository,
    servers as unknown as AgentServerRepository,
    { now: () => now },
    realtime as unknown as RealtimeGateway,
    nodeAddresses as unknown as NodeAddressCache,
  );
  return { service, reports, servers, auth, realtime, nodeAddresses };
}

describe('AgentReportsService.report', () => {
  it('should write the report at the version read and remember the row at its new version', async () => {
    const { service, reports, servers, auth } = setup(['9']);
    const view = await service.report(credential, server, report);
    expect(view.reliability).toBe(92); // docs/product/states.md#subscription-and-reliability-states: +2 for a fresh report
    expect(reports.write).toHaveBeenCalledWith(
      ID,
      '7',
      expect.objectContaining({ coreState: 'running', pingMs: null, activeClients: 1 }),
      'ok',
      report.clientTraffic,
      '',
    );
    expect(servers.remember).toHaveBeenCalledWith(
      expect.objectContaining({ id: ID, version: '9', reliabilityAtReport: 92, lastReportAt: now }),
    );
    expect(auth.authenticate).not.toHaveBeenCalled();
  });

  it('should read the server again and re-apply when the row changed under the write', async () => {
    const { service, reports, servers, auth } = setup([null, '10']);
    await service.report(credential, server, report);
    expect(servers.forget).toHaveBeenCalledWith(ID);
    expect(auth.authenticate).toHaveBeenCalledWith(credential, { fresh: true });
    expect(reports.write.mock.calls.map((call) => (call as unknown[])[1])).toEqual(['7', '8']);
  });

  it('should refuse as a conflict when the row changed at every one of three tries', async () => {
    const { service, reports } = setup([null, null, null]);
    await expect(service.report(credential, server, report)).rejects.toMatchObject({
      code: 'report_conflict',
    });
    expect(reports.write).toHaveBeenCalledTimes(3);
  });

  it('should cost the score and have the drop counted when the client count failed or the counts cannot be true', async () => {
    const failedSetup = setup(['9']);
    const failed = await failedSetup.service.report(credential, server, {
      ...report,
      clientCountFailed: true,
      trafficBatchId: '33333333-3333-4333-8333-333333333333',
    });
    const impossibleSetup = setup(['9']);
    const impossible = await impossibleSetup.service.report(credential, server, {
      ...report,
      activeClients: 2,
    });
    expect(failed.reliability).toBeLessThan(90);
    expect(impossible.reliability).toBeLessThan(90);
    // The writer counts the drop in the day's history.
    expect(failedSetup.reports.write.mock.calls.map((call) => (call as unknown[])[3])[0]).toBe(
      'client_count_failed',
    );
    expect(impossibleSetup.reports.write.mock.calls.map((call) => (call as unknown[])[3])[0]).toBe(
      'malformed',
    );
    // A failed count's traffic is meaningless: not stored.
    expect((failedSetup.reports.write.mock.calls[0] as unknown[])[4]).toEqual([]);
    // Nor its batch id: a later copy of that batch must still add its bytes.
    expect((failedSetup.reports.write.mock.calls[0] as unknown[])[5]).toBe('');
    const ok = setup(['9']);
    await ok.service.report(credential, server, report);
    expect(ok.reports.write.mock.calls.map((call) => (call as unknown[])[3])[0]).toBe('ok');
  });

  it('should tell the market when the address clients dial changed', async () => {
    const { service, realtime } = setup(['9']);
    await service.report(credential, server, { ...report, publicPort: 8443 });
    expect(realtime.serverListUpdated.mock.calls).toEqual([['address']]);
  });

  it("should have the node's name answered anew when its public host changed, and only then", async () => {
    const moved = setup(['9']);
    await moved.service.report(credential, server, { ...report, publicHost: '203.0.113.7' });
    expect(moved.nodeAddresses.forget.mock.calls).toEqual([['n0123456789abcdef']]);
    const stayed = setup(['9']);
    await stayed.service.report(credential, server, { ...report, publicPort: 8443 });
    expect(stayed.nodeAddresses.forget).not.toHaveBeenCalled();
  });
});

describe('AgentReportsService.nameNode', () => {
  it('should give a node without a name a new one, and leave a named node alone', async () => {
    const named = setup([]);
    expect(await named.service.nameNode(server)).toBe(false);
    expect(named.servers.assignHostName).not.toHaveBeenCalled();
    const unnamed = setup([]);
    expect(await unnamed.service.nameNode({ ...server, hostName: null })).toBe(true);
    expect(unnamed.servers.assignHostName).toHaveBeenCalledWith(
      ID,
      expect.stringMatching(/^n[0-9a-f]{16}$/),
    );
  });
});
