import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpDrain } from './http-drain';

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

/** A loopback server whose `/slow` requests wait until the test lets them go. */
async function startServer() {
  const held: Array<() => void> = [];
  const server = http.createServer((request, response) => {
    const answer = () => response.end(`done ${request.url}`);
    if (request.url === '/slow') held.push(answer);
    else answer();
  });
  const drain = new HttpDrain(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, drain, port, release: () => held.splice(0).forEach((go) => go()) };
}

function get(port: number, path: string, agent: http.Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          connection: response.headers.connection,
          body,
        }),
      );
    });
    request.on('error', reject);
  });
}

/** An agent's open connections, to the one server of these tests. */
const socketsOf = (agent: http.Agent) =>
  Object.values(agent.sockets).flat().length + Object.values(agent.freeSockets).flat().length;

describe('HttpDrain', () => {
  let agent: http.Agent;
  beforeEach(() => {
    agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  });
  afterEach(() => agent.destroy());

  it('should keep connections alive until the drain, then answer each with Connection: close', async () => {
    const { server, drain, port } = await startServer();
    try {
      expect(await get(port, '/a', agent)).toEqual({
        status: 200,
        connection: 'keep-alive',
        body: 'done /a',
      });
      expect(socketsOf(agent)).toBe(1);
      drain.draining();
      expect(await get(port, '/b', agent)).toEqual({
        status: 200,
        connection: 'close',
        body: 'done /b',
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      // The client let the connection go; still served over a new one.
      expect(socketsOf(agent)).toBe(0);
      expect((await get(port, '/c', agent)).body).toBe('done /c');
    } finally {
      drain.force();
      server.close();
    }
  });

  it('should answer the requests in hand, shut idle connections and refuse new ones at stop', async () => {
    const { drain, port, release } = await startServer();
    const idleAgent = new http.Agent({ keepAlive: true });
    try {
      await get(port, '/warm', idleAgent);
      expect(socketsOf(idleAgent)).toBe(1);
      const slow = get(port, '/slow', agent);
      await new Promise((resolve) => setTimeout(resolve, 50));
      let stopped = false;
      const stopping = drain.stop().then(() => (stopped = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      // The idle connection was shut with a FIN: the client's pool let it go without an error.
      expect(socketsOf(idleAgent)).toBe(0);
      await expect(get(port, '/new', new http.Agent())).rejects.toMatchObject({
        code: 'ECONNREFUSED',
      });
      expect(stopped).toBe(false);
      release();
      expect(await slow).toEqual({ status: 200, connection: 'close', body: 'done /slow' });
      await stopping;
      expect(drain.connections).toBe(0);
    } finally {
      idleAgent.destroy();
    }
  });

  it('should close a connection whose response began before the drain once it is answered', async () => {
    let began!: () => void;
    const headersSent = new Promise<void>((resolve) => (began = resolve));
    const server = http.createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.write('first ');
      began();
      setTimeout(() => response.end('last'), 150);
    });
    const drain = new HttpDrain(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const answer = get(port, '/', agent);
    // The drain starts once the headers went out (a fixed wait lost that race on a loaded machine).
    await headersSent;
    drain.draining();
    const stopping = drain.stop();
    expect(await answer).toEqual({ status: 200, connection: 'keep-alive', body: 'first last' });
    await stopping;
    expect(drain.connections).toBe(0);
  });

  it('should cut what is still open when forced', async () => {
    const { drain, port } = await startServer();
    const slow = get(port, '/slow', agent);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopping = drain.stop();
    drain.force();
    await expect(slow).rejects.toMatchObject({ code: 'ECONNRESET' });
    await stopping;
    expect(drain.connections).toBe(0);
  });
});
