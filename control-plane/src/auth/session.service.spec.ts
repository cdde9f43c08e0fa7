import type { AppConfig } from '../config/app-config';
import type { ActiveSession, AuthRepository } from './auth.repository';
import { hashToken, SessionService } from './session.service';

const token = (c: string) => c.repeat(43);

function serviceWith(sessions: Map<string, ActiveSession>) {
  const calls: string[][] = [];
  const repository = {
    findActiveSessions: (hashes: readonly string[]) => {
      calls.push([...hashes]);
      return Promise.resolve(new Map([...sessions].filter(([hash]) => hashes.includes(hash))));
    },
  } as unknown as AuthRepository;
  return { service: new SessionService(repository, {} as AppConfig), calls };
}

describe('SessionService.authenticate', () => {
  it('should look up the sessions of concurrent requests in one statement', async () => {
    const session = { id: 's1' } as ActiveSession;
    const { service, calls } = serviceWith(new Map([[hashToken(token('a')), session]]));
    const answers = await Promise.all([
      service.authenticate(token('a')),
      service.authenticate(token('b')),
      service.authenticate(token('a')),
    ]);
    expect(answers).toEqual([session, null, session]);
    expect(calls).toEqual([[hashToken(token('a')), hashToken(token('b'))]]);
    // A later request reads the database again (a revoked session is refused at once).
    await service.authenticate(token('a'));
    expect(calls).toHaveLength(2);
  });

  it('should refuse a malformed token without reading the database', async () => {
    const { service, calls } = serviceWith(new Map());
    expect(await service.authenticate('short')).toBeNull();
    expect(await service.authenticate(`${token('a')}\n`)).toBeNull();
    expect(calls).toEqual([]);
  });
});
