import type {
  EndpointCheckResult,
  ProbeEndpoint__Output,
  ProbeTasksResponse__Output,
} from '@scn/proto';
import {
  describeCycle,
  endpointCheckOf,
  mapBounded,
  runProbeCycle,
  timeoutOf,
} from './probe-cycle';

function endpoint(overrides: Partial<ProbeEndpoint__Output> = {}): ProbeEndpoint__Output {
  return {
    serverId: 's1',
    host: 'node.example.test',
    port: 443,
    security: 'tls',
    network: 'tcp',
    sni: '',
    path: '',
    certificateSha256: '',
    probeUuid: '8c1a1d1e-6c1b-4d1c-9a1a-1a1a1a1a1a1a',
    planRevision: '3',
    ...overrides,
  };
}

function tasks(overrides: Partial<ProbeTasksResponse__Output> = {}): ProbeTasksResponse__Output {
  return {
    endpoints: [],
    intervalMs: 0,
    timeoutMs: 0,
    targetUrl: '',
    country: '',
    asn: 0,
    ...overrides,
  };
}

const TARGET = { host: '198.51.100.7', port: 80, tls: false, path: '/' };

describe('endpointCheckOf', () => {
  it('should check the certificate against the host name when there is no sni and no pin', () => {
    expect(endpointCheckOf(endpoint(), TARGET, 5_000)).toMatchObject({
      host: 'node.example.test',
      serverName: 'node.example.test',
      certificateSha256: null,
      security: 'tls',
      network: 'tcp',
      target: TARGET,
    });
  });

  it('should send no server name to an IP address and keep the pin', () => {
    const check = endpointCheckOf(
      endpoint({ host: '[2001:db8::1]', certificateSha256: 'ab'.repeat(32) }),
      TARGET,
      5_000,
    );
    expect(check).toMatchObject({
      host: '2001:db8::1',
      serverName: null,
      certificateSha256: 'ab'.repeat(32),
    });
  });

  it('should test a transport it does not speak only up to the handshake', () => {
    expect(endpointCheckOf(endpoint({ network: 'grpc' }), TARGET, 5_000).target).toBeNull();
    expect(endpointCheckOf(endpoint({ security: 'xtls' }), TARGET, 5_000).security).toBe('reality');
  });

  it('should take the ws path', () => {
    expect(endpointCheckOf(endpoint({ network: 'ws', path: '/abc' }), TARGET, 5_000)).toMatchObject(
      {
        network: 'ws',
        path: '/abc',
      },
    );
  });
});

describe('timeoutOf', () => {
  it('should keep the control plane timeout within 1 to 60 seconds', () => {
    expect(timeoutOf(tasks())).toBe(10_000);
    expect(timeoutOf(tasks({ timeoutMs: 5 }))).toBe(1_000);
    expect(timeoutOf(tasks({ timeoutMs: 600_000 }))).toBe(60_000);
    expect(timeoutOf(tasks({ timeoutMs: 7_000 }))).toBe(7_000);
  });
});

describe('mapBounded', () => {
  it('should never run more than the limit at once and keep the order', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapBounded([...Array(20).keys()], 8, async (n) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5 + (n % 3)));
      running -= 1;
      return n * 2;
    });
    expect(peak).toBe(8);
    expect(results).toEqual([...Array(20).keys()].map((n) => n * 2));
  });
});

describe('runProbeCycle', () => {
  it('should report one result per endpoint and add up classes and bytes', async () => {
    const classes = ['ok', 'timeout', 'timeout'] as const;
    let call = 0;
    const outcome = await runProbeCycle(
      tasks({
        endpoints: [
          endpoint({ serverId: 'a' }),
          endpoint({ serverId: 'b' }),
          endpoint({ serverId: 'c' }),
        ],
        targetUrl: 'http://198.51.100.7/',
      }),
      {
        concurrency: 2,
        check: async (): Promise<EndpointCheckResult> => {
          const errorClass = classes[call]!;
          call += 1;
          return {
            errorClass,
            stage: 'vless',
            tcpOk: true,
            tcpMs: 3,
            handshakeOk: true,
            readyMs: 5,
            vlessAnswered: errorClass === 'ok',
            vlessOk: errorClass === 'ok',
            totalMs: 9,
            bytesSent: 100,
            bytesReceived: 200,
            detail: '',
          };
        },
      },
    );
    expect(outcome.results.map((r) => [r.serverId, r.errorClass, r.planRevision])).toEqual([
      ['a', 'ok', '3'],
      ['b', 'timeout', '3'],
      ['c', 'timeout', '3'],
    ]);
    expect(outcome).toMatchObject({
      byClass: { ok: 1, timeout: 2 },
      bytesSent: 300,
      bytesReceived: 600,
    });
    expect(describeCycle({ ...outcome, elapsedMs: 1234 })).toBe(
      'tested 3 endpoints in 1234 ms (1 ok, 2 timeout); 0.3 KiB sent, 0.6 KiB received, 300 B/endpoint',
    );
  });
});
