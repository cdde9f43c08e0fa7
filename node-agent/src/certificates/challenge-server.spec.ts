import http from 'node:http';
import { ChallengeServer } from './challenge-server';

function get(port: number, requestPath: string, host = 'node.example.net') {
  return new Promise<{ status: number; body: string; location?: string }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: requestPath, headers: { host } }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () =>
          resolve({ status: response.statusCode!, body, location: response.headers.location }),
        );
      })
      .on('error', reject);
  });
}

describe('ChallengeServer (HTTP-01)', () => {
  let server: ChallengeServer;
  let port: number;

  beforeEach(async () => {
    server = new ChallengeServer(0, '127.0.0.1');
    port = await server.start();
  });
  afterEach(() => server.stop());

  it('should answer a known token with its key authorization, and only while it is set', async () => {
    server.set('tok_en-1', 'tok_en-1.thumbprint');
    expect(await get(port, '/.well-known/acme-challenge/tok_en-1')).toMatchObject({
      status: 200,
      body: 'tok_en-1.thumbprint',
    });
    expect((await get(port, '/.well-known/acme-challenge/other')).status).toBe(404);
    server.remove('tok_en-1');
    expect((await get(port, '/.well-known/acme-challenge/tok_en-1')).status).toBe(404);
  });

  it('should answer anything else as a web server on port 80 does: a redirect to https', async () => {
    expect(await get(port, '/index.html?a=1')).toMatchObject({
      status: 301,
      location: 'https://node.example.net/index.html?a=1',
    });
    expect((await get(port, '/', 'bad host/')).status).toBe(400);
  });

  it('should refuse a port that is taken with the OS error', async () => {
    const second = new ChallengeServer(port, '127.0.0.1');
    await expect(second.start()).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});
