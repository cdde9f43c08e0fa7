import type { Transaction, TransactionRunner } from '../database/transaction-runner';
import type { RealtimeGateway } from '../realtime/realtime.gateway';
import type { ServerEntity } from './entities/server.entity';
import type { NodesRepository } from './nodes.repository';
import { NodesService } from './nodes.service';
import type { ServerDeletion } from './server-deletion';

const now = new Date('2026-11-10T12:00:00.000Z');
const tx = { tx: true } as unknown as Transaction;

function setup({ owned = true, dropped = 0 } = {}) {
  const repository = {
    listOwnedServers: jest.fn(async () => []),
    findOwnedServer: jest.fn(async () => (owned ? ({ id: 's1' } as ServerEntity) : null)),
    updateOwnedServer: jest.fn(async () => owned),
    lockOwnedServer: jest.fn(async () => owned),
    deleteServer: jest.fn(async () => undefined),
    clientSlots: jest.fn(async () => ({ allowed: 2, version: '5' })),
  };
  const transactions = {
    runRetrying: jest.fn((work: (t: Transaction) => unknown) => work(tx)),
  };
  const realtime = { serverListUpdated: jest.fn() };
  const deletion = { beforeDelete: jest.fn(async () => dropped) };
  const service = new NodesService(
    repository as unknown as NodesRepository,
    transactions as unknown as TransactionRunner,
    { now: () => now },
    realtime as unknown as RealtimeGateway,
    deletion as ServerDeletion,
  );
  return { service, repository, transactions, realtime, deletion };
}

describe('NodesService.deleteServer', () => {
  it('should lock, settle the subscriptions and delete in one retried transaction, then announce', async () => {
    const { service, repository, transactions, realtime, deletion } = setup({ dropped: 2 });
    expect(await service.deleteServer('owner', 's1')).toBe(true);
    expect(transactions.runRetrying).toHaveBeenCalledTimes(1);
    expect(repository.lockOwnedServer).toHaveBeenCalledWith(tx, 'owner', 's1');
    expect(deletion.beforeDelete).toHaveBeenCalledWith(tx, 's1', now);
    expect(repository.deleteServer).toHaveBeenCalledWith(tx, 's1');
    expect(realtime.serverListUpdated.mock.calls).toEqual([['removed'], ['withdrawn']]);
  });

  it("should delete nothing and announce nothing when the server is not the owner's", async () => {
    const { service, repository, realtime, deletion } = setup({ owned: false });
    expect(await service.deleteServer('owner', 's1')).toBe(false);
    expect(deletion.beforeDelete).not.toHaveBeenCalled();
    expect(repository.deleteServer).not.toHaveBeenCalled();
    expect(realtime.serverListUpdated).not.toHaveBeenCalled();
  });
});

describe('NodesService.updateServer', () => {
  it('should write only the given fields and tell the market', async () => {
    const { service, repository, realtime } = setup();
    await service.updateServer('owner', 's1', { country: 'NL', location: undefined });
    expect(repository.updateOwnedServer).toHaveBeenCalledWith('owner', 's1', { country: 'NL' });
    expect(realtime.serverListUpdated.mock.calls).toEqual([['updated']]);
  });

  it("should answer not found when the server is another operator's", async () => {
    const { service, realtime } = setup({ owned: false });
    await expect(
      service.updateServer('owner', 's1', { name: 'x', location: undefined }),
    ).rejects.toMatchObject({
      code: 'server_not_found',
    });
    await expect(service.ownedServer('owner', 's1')).rejects.toMatchObject({
      code: 'server_not_found',
    });
    expect(realtime.serverListUpdated).not.toHaveBeenCalled();
  });
});
