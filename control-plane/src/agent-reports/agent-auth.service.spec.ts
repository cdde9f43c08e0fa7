import { createHash } from 'node:crypto';
import { AgentAuthService, PresentedCredential } from './agent-auth.service';
import type { AgentServer, AgentServerRepository } from '../nodes/agent-server.repository';

const ID = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const SECRET = `${ID}.secret`;
const digest = (secret: string) => createHash('sha256').update(secret).digest();

function server(id: string, secret: string): AgentServer {
  return {
    id,
    tier: 'tier1',
    host: null,
    port: null,
    hostName: null,
    reliabilityAtReport: 100,
    lastReportAt: null,
    lastCreditedAt: null,
    belowThresholdSince: null,
    bannedAt: null,
    version: '1',
    secretDigest: digest(secret),
  };
}

function setup(stored: AgentServer | null, remembered?: AgentServer) {
  const servers = {
    recall: jest.fn(() => remembered),
    read: jest.fn(async () => stored),
  };
  return { auth: new AgentAuthService(servers as unknown as AgentServerRepository), servers };
}

describe('AgentAuthService.authenticate', () => {
  it('should answer the node its secret names when the id matches', async () => {
    const { auth } = setup(server(ID, SECRET));
    expect((await auth.authenticate(new PresentedCredential(ID, SECRET))).id).toBe(ID);
  });

  it('should refuse as unauthenticated when the secret is wrong, unknown or names no node', async () => {
    await expect(
      setup(server(ID, SECRET)).auth.authenticate(new PresentedCredential(ID, `${ID}.wrong`)),
    ).rejects.toMatchObject({ code: 'node_unauthenticated' });
    await expect(
      setup(null).auth.authenticate(new PresentedCredential(ID, SECRET)),
    ).rejects.toMatchObject({ code: 'node_unauthenticated' });
    const { auth, servers } = setup(server(ID, SECRET));
    await expect(
      auth.authenticate(new PresentedCredential(ID, 'no-node-id')),
    ).rejects.toMatchObject({ code: 'node_unauthenticated' });
    expect(servers.read).not.toHaveBeenCalled();
  });

  it("should refuse as a mismatch when a valid secret comes with another node's id", async () => {
    const { auth } = setup(server(ID, SECRET));
    await expect(auth.authenticate(new PresentedCredential(OTHER, SECRET))).rejects.toMatchObject({
      code: 'node_mismatch',
    });
  });

  it('should let the remembered copy answer a report without reading when it is not fresh', async () => {
    const { auth, servers } = setup(null, server(ID, SECRET));
    await auth.authenticate(new PresentedCredential(ID, SECRET), { fresh: false });
    expect(servers.read).not.toHaveBeenCalled();
    await expect(
      auth.authenticate(new PresentedCredential(ID, SECRET), { fresh: true }),
    ).rejects.toMatchObject({ code: 'node_unauthenticated' });
  });

  it('should ask the database when the remembered copy refuses the secret', async () => {
    const { auth, servers } = setup(server(ID, `${ID}.rotated`), server(ID, SECRET));
    const credential = new PresentedCredential(ID, `${ID}.rotated`);
    expect((await auth.authenticate(credential, { fresh: false })).id).toBe(ID);
    expect(servers.read).toHaveBeenCalledTimes(1);
  });
});
