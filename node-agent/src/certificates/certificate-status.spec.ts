import { agentConfigSchema, type AgentConfigInput } from '../config/agent-config';
import { sampleConfig } from '../config/agent-config.fixture';
import { certificateCheck, certificateStatus } from './certificate-status';

const tls = { security: 'tls', network: 'tcp', planRevision: '0' } as const;
const config = (overrides: Partial<AgentConfigInput>) =>
  agentConfigSchema.parse(sampleConfig({ controlPlane: 'scn.example.net:50051', ...overrides }));

describe('certificate status and the doctor line', () => {
  it('should pass a CA certificate and say when it renews', () => {
    const check = certificateCheck(
      config({
        inbound: { ...tls, certificateSource: 'acme' },
        certificateState: {
          failures: 0,
          lastAttemptAt: '2026-11-01T00:00:00.000Z',
          lastError: null,
          nextAttemptAt: '2027-01-01T00:00:00.000Z',
        },
      }),
    );
    expect(check).toMatchObject({ name: 'certificate', result: 'PASS' });
    expect(check!.detail).toContain('renews from 2027-01-01T00:00:00.000Z');
  });

  it('should fail the self-signed fallback with the reason and what to fix', () => {
    const check = certificateCheck(
      config({
        hostName: 'n0123456789abcdef.nodes.scn.test',
        inbound: {
          ...tls,
          certificateSource: 'self_signed',
          certificateProblem:
            'Fetching http://n0123456789abcdef.nodes.scn.test/: connection refused',
        },
      }),
    );
    expect(check).toMatchObject({ result: 'FAIL' });
    expect(check!.detail).toContain('connection refused');
    expect(check!.hint).toContain('TCP port 80');
    expect(check!.hint).toContain('n0123456789abcdef.nodes.scn.test resolve to 203.0.113.7');
  });

  it('should say nothing without TLS', () => {
    expect(certificateCheck(config({}))).toBeNull();
    expect(certificateStatus(config({}))).toBeNull();
  });
});
