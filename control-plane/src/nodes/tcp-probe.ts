import { connect } from 'node:net';

/** Opens a TCP connection to host:port; the connect time in ms, or null if it fails in time. */
export function tcpProbe(host: string, port: number, timeoutMs = 3000): Promise<number | null> {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const socket = connect({ host, port });
    const done = (result: number | null) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done(null));
    socket.once('error', () => done(null));
    socket.once('connect', () =>
      done(Math.max(1, Math.round(Number(process.hrtime.bigint() - started) / 1e6))),
    );
  });
}
