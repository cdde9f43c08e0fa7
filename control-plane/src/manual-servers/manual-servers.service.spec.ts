import type { AppConfig } from '../config/app-config';
import type { ServerEntity } from '../nodes/entities/server.entity';
import type { NodesRepository } from '../nodes/nodes.repository';
import type { RateLimitService } from '../rate-limit/rate-limit.service';
import type { RealtimeGateway } from '../realtime/realtime.gateway';
import type { CheckOutcome, ManualServerCheck } from './manual-server-check';
import type { ManualServersRepository } from '../nodes/manual-servers.repository';
import { ManualServersService } from './manual-servers.service';

const UUID = '11111111-1111-4111-8111-111111111111';
const LINK = `vless://${UUID}@vpn.example.com:443?security=tls&sni=vpn.example.com#Mine`;
const now = new Date('2026-11-10T12:00:00.000Z');

function setup({ owned = 0, outcome = { ok: true, connectMs: 12 } as CheckOutcome } = {}) {
  const repository = {
    countOwned: jest.fn(async () => owned),
    insertWithinLimit: jest.fn(async () => true),
    listForCheck: jest.fn(async (): Promise<ServerEntity[]> => []),
    writeCheck: jest.fn(async () => undefined),
  };
  const nodes = { findServer: jest.fn(async (id: string) => ({ id }) as ServerEntity) };
  const checks = {
    pin: jest.fn(async () => ({ ok: true, addresses: ['198.51.100.7'] })),
    checkPinned: jest.fn(async () => outcome),
    check: jest.fn(async () => outcome),
  };
  const rateLimits = { consume: jest.fn(async () => undefined) };
  const realtime = { serverListUpdated: jest.fn() };
  const service = new ManualServersService(
    repository as unknown as ManualServersRepository,
    nodes as unknown as NodesRepository,
    checks as unknown as ManualServerCheck,
    rateLimits as unknown as RateLimitService,
    realtime as unknown as RealtimeGateway,
    { now: () => now },
    { manualServersPerOperator: 3 } as AppConfig,
  );
  return { service, repository, checks, rateLimits, realtime };
}

describe('ManualServersService.upload', () => {
  it('should store a server that passed the check through the pinned address, at reliability 100', async () => {
    const { service, repository, checks, realtime } = setup();
    await service.upload('owner', LINK, undefined);
    expect(checks.checkPinned).toHaveBeenCalledWith(
      expect.objectContaining({ host: 'vpn.example.com' }),
      ['198.51.100.7'],
    );
    expect(repository.insertWithinLimit).toHaveBeenCalledWith(
      expect.objectContaining({
        ownerUuid: 'owner',
        name: 'Mine',
        source: 'manual',
        reliabilityAtReport: 100,
        lastReportAt: now,
        pingMs: 12,
        checkError: null,
      }),
      3,
    );
    expect(realtime.serverListUpdated.mock.calls).toEqual([['added']]);
  });

  it('should refuse before connecting when the link is malformed, unsupported or over the limit', async () => {
    await expect(setup().service.upload('o', 'not a link', undefined)).rejects.toMatchObject({
      code: 'vless_invalid',
    });
    await expect(
      setup().service.upload('o', `${LINK.split('#')[0]}&type=ws`, undefined),
    ).rejects.toMatchObject({ code: 'manual_unsupported' });
    const { service, checks } = setup({ owned: 3 });
    await expect(service.upload('o', LINK, undefined)).rejects.toMatchObject({
      code: 'manual_limit',
    });
    expect(checks.pin).not.toHaveBeenCalled();
  });

  it('should store nothing when the check fails', async () => {
    const { service, repository } = setup({
      outcome: { ok: false, code: 'manual_check_failed', message: 'no' },
    });
    await expect(service.upload('o', LINK, undefined)).rejects.toMatchObject({
      code: 'manual_check_failed',
    });
    expect(repository.insertWithinLimit).not.toHaveBeenCalled();
  });
});

describe('ManualServersService.checkAll', () => {
  it('should record a failure for the dashboard and credit a pass like a fresh report', async () => {
    const { service, repository, checks } = setup();
    const server = (id: string, lastReportAt: Date | null) =>
      ({
        id,
        vlessString: LINK,
        reliabilityAtReport: 90,
        lastReportAt,
        lastCreditedAt: null,
        belowThresholdSince: null,
        bannedAt: null,
      }) as ServerEntity;
    repository.listForCheck.mockResolvedValue([
      server('passes', new Date(now.getTime() - 60_000)),
      server('fails', null),
    ]);
    checks.check
      .mockResolvedValueOnce({ ok: true, connectMs: 5 })
      .mockResolvedValueOnce({ ok: false, code: 'manual_check_failed', message: 'down' });
    expect(await service.checkAll()).toBe(1);
    expect(repository.writeCheck).toHaveBeenCalledWith(
      'passes',
      expect.objectContaining({ reliabilityAtReport: 92, pingMs: 5, checkError: null }),
    );
    expect(repository.writeCheck).toHaveBeenCalledWith('fails', {
      checkedAt: now,
      checkError: 'down',
    });
  });
});
