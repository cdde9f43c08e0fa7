import { ServerEntity } from './entities/server.entity';
import { certificateOf } from './node-server-view';

function server(inbound: Record<string, string>, source: 'agent' | 'manual' = 'agent') {
  return Object.assign(new ServerEntity(), { source, inbound });
}

describe('certificateOf', () => {
  it('should show a trusted certificate with its name and the end of its validity', () => {
    expect(
      certificateOf(
        server({
          security: 'tls',
          certificateSource: 'acme',
          certificateName: 'n0123456789abcdef.nodes.example.net',
          certificateNotAfterMs: '1798761600000',
          certificateProblem: '',
        }),
      ),
    ).toEqual({
      source: 'acme',
      name: 'n0123456789abcdef.nodes.example.net',
      notAfter: '2027-01-01T00:00:00.000Z',
      problem: '',
    });
  });

  it('should show a self-signed fallback with the reason the node gave', () => {
    expect(
      certificateOf(
        server({
          security: 'tls',
          certificateSource: 'self_signed',
          certificateName: '203.0.113.5',
          certificateNotAfterMs: '0',
          certificateProblem: 'HTTP-01 challenge failed: port 80 is closed',
        }),
      ),
    ).toMatchObject({
      source: 'self_signed',
      notAfter: null,
      problem: 'HTTP-01 challenge failed: port 80 is closed',
    });
  });

  it('should show nothing with REALITY, for older agents, manual servers or unknown sources', () => {
    expect(certificateOf(server({ security: 'reality', certificateSource: 'acme' }))).toBeNull();
    expect(certificateOf(server({ security: 'tls' }))).toBeNull();
    expect(certificateOf(server({ security: 'tls', certificateSource: 'x' }))).toBeNull();
    expect(
      certificateOf(server({ security: 'tls', certificateSource: 'acme' }, 'manual')),
    ).toBeNull();
    expect(certificateOf(server({}))).toBeNull();
  });
});
