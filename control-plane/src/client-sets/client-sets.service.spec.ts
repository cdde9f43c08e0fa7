import type { Transaction } from '../database/transaction-runner';
import type { ClientSetsRepository } from './client-sets.repository';
import { ClientSetsService } from './client-sets.service';

const tx = { tx: true } as unknown as Transaction;
const SERVERS = ['s1', 's2'];
const CLIENT = '11111111-1111-4111-8111-111111111111';

function setup() {
  const repository = {
    clientSet: jest.fn(async () => ({ version: '2', clientUuids: [CLIENT] })),
    replaceClientSet: jest.fn(async () => '3'),
    addClients: jest.fn(async () => ['s1']),
    removeClients: jest.fn(async () => ['s2']),
    setClientsEnabled: jest.fn(async () => SERVERS),
  };
  return {
    service: new ClientSetsService(repository as unknown as ClientSetsRepository),
    repository,
  };
}

describe('ClientSetsService', () => {
  it("should read a server's set and replace it, answering the new version", async () => {
    const { service, repository } = setup();
    expect(await service.clientSet('s1')).toEqual({ version: '2', clientUuids: [CLIENT] });
    expect(await service.setAllowedClients('s1', [CLIENT])).toBe('3');
    expect(repository.replaceClientSet).toHaveBeenCalledWith('s1', [CLIENT]);
  });

  it("should change one client's places inside the caller's transaction", async () => {
    const { service, repository } = setup();
    expect(await service.addClients(tx, SERVERS, CLIENT)).toEqual(['s1']);
    expect(await service.removeClients(tx, SERVERS, CLIENT)).toEqual(['s2']);
    expect(repository.addClients).toHaveBeenCalledWith(tx, SERVERS, CLIENT);
    expect(repository.removeClients).toHaveBeenCalledWith(tx, SERVERS, CLIENT);
  });

  it('should keep the places but take the client off the nodes when disabled, and back when enabled', async () => {
    const { service, repository } = setup();
    await service.disableClients(tx, SERVERS, CLIENT);
    await service.enableClients(tx, SERVERS, CLIENT);
    expect(repository.setClientsEnabled.mock.calls).toEqual([
      [tx, SERVERS, CLIENT, false],
      [tx, SERVERS, CLIENT, true],
    ]);
  });
});
