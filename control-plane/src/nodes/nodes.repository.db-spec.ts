import { randomUUID } from 'node:crypto';
import { insertAgentServer, repositoryDatabase } from '../../test/support/server-rows';
import { ServerEntity } from './entities/server.entity';
import { NodesRepository } from './nodes.repository';

const t = repositoryDatabase();
const insertServer = () => insertAgentServer(t.db);

describe('NodesRepository.findServer', () => {
  it('should map a row exactly as TypeORM does, every column included', async () => {
    const id = await insertServer();
    const plain = await new NodesRepository(t.dataSource).findServer(id);
    const typeorm = await t.dataSource.getRepository(ServerEntity).findOneBy({ id });
    expect(plain).toEqual(typeorm);
    const metadata = t.dataSource.getMetadata(ServerEntity);
    const relations = new Set(metadata.relations.map((r) => r.propertyName));
    const mapped = Object.keys(plain ?? {}).filter((key) => !relations.has(key));
    expect(mapped.sort()).toEqual(metadata.columns.map((c) => c.propertyName).sort());
  });
});

describe('NodesRepository.updateOwnedServer', () => {
  it("should change only the owner's server and only the given columns", async () => {
    const id = await insertServer();
    const [{ owner_uuid: owner } = { owner_uuid: '' }] = await t.db.query<{ owner_uuid: string }>(
      'SELECT owner_uuid FROM servers WHERE id = $1',
      [id],
    );
    const repository = new NodesRepository(t.dataSource);
    expect(await repository.updateOwnedServer(randomUUID(), id, { name: 'Stolen' })).toBe(false);
    expect(await repository.updateOwnedServer(owner, randomUUID(), { name: 'Ghost' })).toBe(false);
    expect(await repository.updateOwnedServer(owner, id, { country: 'NL', location: 'Ams' })).toBe(
      true,
    );
    expect(
      await t.db.query('SELECT name, country, location, host FROM servers WHERE id = $1', [id]),
    ).toEqual([{ name: 'n', country: 'NL', location: 'Ams', host: 'h.example' }]);
  });
});
