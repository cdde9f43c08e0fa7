import net from 'node:net';

/** Whether a TCP connection to host:port succeeds within the timeout. */
export function canConnect(host: string, port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export type PortProbe = 'free' | 'in-use' | 'no-permission';

/** Tries to listen on the port (then lets go): free, held by someone, or needs privileges. */
export function probeListen(port: number, host = '0.0.0.0'): Promise<PortProbe> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'EACCES' ? 'no-permission' : 'in-use'),
    );
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve('free')));
  });
}
