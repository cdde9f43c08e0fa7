import { selfSigned } from '../../test/support/self-signed';
import { describeIssue, enrollRequestSchema, reportRequestSchema } from './agent-messages';

const cert = selfSigned('node.example.net');
const other = selfSigned('other.example.net');

function reportWith(inbound: Record<string, string>) {
  return {
    agentVersion: '0.1.0',
    hardware: null,
    uptimeSeconds: '60',
    proxyCore: null,
    activeClients: 0,
    clientCountFailed: false,
    clientTraffic: [],
    pingMs: 5,
    publicHost: 'node.example.net',
    publicPort: 24567,
    inbound: {
      security: 'tls',
      sni: 'node.example.net',
      fp: 'chrome',
      pbk: '',
      sid: '',
      flow: '',
      network: 'ws',
      path: '/a1b2c3',
      serviceName: '',
      certificateSha256: cert.certificateSha256,
      publicKeySha256: cert.publicKeySha256,
      planRevision: '3',
      certificatePem: cert.certificatePem,
      ...inbound,
    },
    appliedClientSetVersion: '0',
  };
}

/** The INVALID_ARGUMENT detail the gRPC server would answer, or null when valid. */
function problem(inbound: Record<string, string>): string | null {
  const result = reportRequestSchema.safeParse(reportWith(inbound));
  return result.success ? null : describeIssue(result.error);
}

describe('reportRequestSchema: the reported inbound', () => {
  it('should accept a TLS inbound with its pins and certificate, and keep every field', () => {
    const parsed = reportRequestSchema.parse(reportWith({}));
    expect(parsed.inbound).toMatchObject({
      path: '/a1b2c3',
      certificateSha256: cert.certificateSha256,
      publicKeySha256: cert.publicKeySha256,
      planRevision: '3',
      certificatePem: cert.certificatePem,
    });
  });

  it('should accept a report without the PEM (the control plane keeps the stored one)', () => {
    expect(problem({ certificatePem: '' })).toBeNull();
  });

  it('should read fields an older agent does not send as empty', () => {
    const report = reportWith({});
    const inbound: Record<string, string> = { ...report.inbound };
    for (const key of ['path', 'serviceName', 'certificateSha256', 'publicKeySha256']) {
      delete inbound[key];
    }
    delete inbound.planRevision;
    delete inbound.certificatePem;
    const parsed = reportRequestSchema.parse({ ...report, inbound });
    expect(parsed.inbound).toMatchObject({ certificateSha256: '', planRevision: '0', path: '' });
  });

  it("should keep where the certificate comes from, and read an older agent's silence as empty", () => {
    const acme = reportRequestSchema.parse(
      reportWith({
        certificateSha256: '',
        publicKeySha256: '',
        certificatePem: '',
        certificateSource: 'acme',
        certificateName: 'n0123456789abcdef.nodes.example.net',
        certificateNotAfterMs: '1798761600000',
      }),
    );
    expect(acme.inbound).toMatchObject({
      certificateSource: 'acme',
      certificateName: 'n0123456789abcdef.nodes.example.net',
      certificateNotAfterMs: '1798761600000',
      certificateProblem: '',
      certificateSha256: '',
    });
    const older = reportRequestSchema.parse(reportWith({}));
    expect(older.inbound).toMatchObject({
      certificateSource: '',
      certificateName: '',
      certificateNotAfterMs: '0',
      certificateProblem: '',
    });
  });

  const cases: Array<[Record<string, string>, string]> = [
    [
      { certificateSource: 'letsencrypt' },
      'inbound.certificateSource: inbound.certificateSource must be acme, operator, self_signed or empty',
    ],
    [
      {
        security: 'reality',
        pbk: 'k',
        sid: 'ab',
        certificateSha256: '',
        publicKeySha256: '',
        certificatePem: '',
        certificateSource: 'acme',
      },
      'inbound.certificateSource: only a TLS inbound has a certificate',
    ],
    [
      { certificateProblem: `${'x'.repeat(301)}` },
      'inbound.certificateProblem: must be at most 300 characters',
    ],
    [
      { certificateProblem: 'line one\nline two' },
      'inbound.certificateProblem: must not contain control characters',
    ],
    [
      { certificateNotAfterMs: 'soon' },
      'inbound.certificateNotAfterMs: must be an unsigned integer',
    ],
    [
      { certificateSha256: 'AB'.repeat(32) },
      'inbound.certificateSha256: must be empty or 64 lower-case hex digits',
    ],
    [
      { certificateSha256: 'ab'.repeat(31) },
      'inbound.certificateSha256: must be empty or 64 lower-case hex digits',
    ],
    [
      { publicKeySha256: 'abc' },
      'inbound.publicKeySha256: must be empty or a base64 SHA-256 (44 characters)',
    ],
    [{ publicKeySha256: '' }, 'inbound.publicKeySha256: is required with certificateSha256'],
    [
      { certificatePem: 'not a pem' },
      'inbound.certificatePem: must be empty or one PEM certificate',
    ],
    [
      { certificatePem: `${cert.certificatePem}${cert.certificatePem}` },
      'inbound.certificatePem: must be empty or one PEM certificate',
    ],
    [
      {
        certificatePem:
          `-----BEGIN CERTIFICATE-----\n${'A'.repeat(64)}\n`.repeat(1) +
          '-----END CERTIFICATE-----\n',
      },
      'inbound.certificatePem: is not a readable certificate',
    ],
    [
      {
        certificatePem: `-----BEGIN CERTIFICATE-----\n${'QUFB\n'.repeat(3000)}-----END CERTIFICATE-----\n`,
      },
      'inbound.certificatePem: must be at most 8192 characters',
    ],
    [
      { certificatePem: other.certificatePem },
      'inbound.certificatePem: does not match certificateSha256',
    ],
    [
      { publicKeySha256: other.publicKeySha256 },
      'inbound.publicKeySha256: does not match the certificate',
    ],
    [
      { security: 'reality', pbk: 'k', sid: 'ab', certificatePem: '' },
      'inbound.certificateSha256: only a TLS inbound has a certificate',
    ],
    [
      { certificateSha256: '', publicKeySha256: '', certificatePem: cert.certificatePem },
      'inbound.certificatePem: must be empty without certificateSha256',
    ],
    [{ path: 'no-slash' }, 'inbound.path: must be empty or an URL path'],
    [{ path: `/${'a'.repeat(200)}` }, 'inbound.path: must be at most 128 characters'],
    [
      { serviceName: 'a b' },
      'inbound.serviceName: must be letters, digits, dot, dash or underscore',
    ],
    [{ planRevision: '-1' }, 'inbound.planRevision: must be an unsigned integer'],
    [
      { planRevision: '99999999999999999999' },
      'inbound.planRevision: must be at most 9223372036854775807',
    ],
  ];
  it.each(cases.map(([inbound, message]) => [message, inbound] as const))(
    'should refuse with %s',
    (message, inbound) => {
      expect(problem(inbound)).toBe(message);
    },
  );
});

describe('enrollRequestSchema: requested port and core', () => {
  const enroll = (extra: Record<string, unknown>) =>
    enrollRequestSchema.safeParse({
      enrollmentToken: 'a'.repeat(43),
      tier: 'TIER_1',
      agentVersion: '0.2.0',
      hardware: {
        os: 'linux',
        osRelease: '6',
        arch: 'x64',
        cpuCores: 1,
        cpuModel: 'x',
        cpuGhz: 2,
        ramBytes: '1073741824',
        diskBytes: '1',
      },
      country: '',
      location: '',
      requestedPort: 0,
      core: 'xray',
      ...extra,
    });

  it('should take the public host the agent gave in canonical form, and none as null', () => {
    expect(enroll({}).data?.publicHost).toBeNull();
    expect(enroll({ publicHost: '' }).data?.publicHost).toBeNull();
    expect(enroll({ publicHost: 'VPN.Example.NET' }).data?.publicHost).toBe('vpn.example.net');
    expect(enroll({ publicHost: '[2001:DB8::1]' }).data?.publicHost).toBe('2001:db8::1');
    const bad = enroll({ publicHost: 'not a host' });
    expect(bad.success ? null : describeIssue(bad.error)).toBe(
      'publicHost: must be a host name or IP address',
    );
  });

  it('should accept port 0 (assign one) to 65535 and the cores xray, v2ray or none named', () => {
    expect(enroll({}).data).toMatchObject({ requestedPort: 0, core: 'xray' });
    expect(enroll({ requestedPort: 65535, core: '' }).data).toMatchObject({ core: null });
    expect(enroll({ core: 'v2ray' }).data?.core).toBe('v2ray');
  });

  it.each([
    [{ requestedPort: 65536 }, 'requestedPort: requestedPort must be 0-65535'],
    [{ requestedPort: 1.5 }, 'requestedPort: Invalid input: expected int, received number'],
    [{ core: 'sing-box' }, 'core: core must be xray or v2ray'],
  ])('should refuse %j', (extra, message) => {
    const result = enroll(extra);
    expect(result.success ? null : describeIssue(result.error)).toBe(message);
  });
});
