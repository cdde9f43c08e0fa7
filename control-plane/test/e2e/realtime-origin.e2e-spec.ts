import type { AddressInfo } from 'node:net';
import { io } from 'socket.io-client';
import { realtimeOrigins } from '../../src/realtime/origin-checked-io.adapter';
import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await startTestApp({ PUBLIC_URL: 'https://portal.scn.test' });
  await t.app.listen(0, '127.0.0.1');
  url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
});
afterAll(() => t.close());

/** 'connected', or the reason the connection was refused. */
function connect(transport: 'websocket' | 'polling', origin?: string): Promise<string> {
  const socket = io(url, {
    transports: [transport],
    reconnection: false,
    extraHeaders: origin ? { Origin: origin } : {},
  });
  return new Promise<string>((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (error: Error & { context?: { status?: number } }) =>
      resolve(`refused: ${error.message}`),
    );
  }).finally(() => socket.close());
}

describe('realtime connections', () => {
  it.each(['websocket', 'polling'] as const)(
    "should accept the portal's own origin over %s",
    async (transport) => {
      expect(await connect(transport, 'https://portal.scn.test')).toBe('connected');
    },
  );

  it.each(['websocket', 'polling'] as const)(
    "should refuse another site's page over %s",
    async (transport) => {
      for (const origin of [
        'https://evil.example',
        'http://portal.scn.test', // not https: another origin
        'https://portal.scn.test:8443',
        'null',
      ]) {
        expect(await connect(transport, origin)).toMatch(/^refused/);
      }
    },
  );

  it('should accept a client that sends no Origin (not a browser, or same-origin polling)', async () => {
    expect(await connect('websocket')).toBe('connected');
  });
});

describe('realtimeOrigins', () => {
  it('should be the public origin alone in production and in tests', () => {
    expect([
      ...realtimeOrigins({ publicUrl: 'https://scn.example', nodeEnv: 'production' }),
    ]).toEqual(['https://scn.example']);
  });

  it('should add the Vite dev server and loopback spellings in development', () => {
    const origins = realtimeOrigins({ publicUrl: 'http://localhost:5050', nodeEnv: 'development' });
    expect(origins).toContain('http://localhost:5050');
    expect(origins).toContain('http://localhost:5173');
    expect(origins).toContain('http://127.0.0.1:5173');
    expect(origins).not.toContain('http://localhost:8080');
  });
});
