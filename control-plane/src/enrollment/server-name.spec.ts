import { DEMO_OPERATOR_EMAIL, serverName } from './server-name';

describe('serverName', () => {
  const id = '0123abcd-0000-4000-8000-000000000000';

  it("should number a demo operator's servers after the ones it has when the owner is the demo operator", () => {
    expect(serverName({ email: DEMO_OPERATOR_EMAIL, servers: 2 }, id)).toBe('Demo node 3');
  });

  it("should name a server by its id's first eight characters when the owner is anyone else", () => {
    expect(serverName({ email: 'op@example.com', servers: 2 }, id)).toBe('Node 0123abcd');
    expect(serverName(null, id)).toBe('Node 0123abcd');
  });
});
