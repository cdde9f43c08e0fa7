import net from 'node:net';
import type { AgentConfig, AgentConfigStore } from '../config/agent-config';
import { type DecoySite, startDecoySite } from './decoy-site';

/**
 * Which web server answers active probers behind the TLS inbound (core-config.ts
 * vlessFallbacks), and the daemon's copy of the agent's own decoy site (decoy-site.ts).
 */

/**
 * The operator's `--upstream`: `host:port` or an `http://host[:port]` URL of a plain HTTP
 * server. The core forwards the prober's decrypted bytes as they are, so an HTTPS upstream could
 * not read them: refused, with the fix.
 */
export function parseDecoyUpstream(text: string): string {
  const value = text.trim();
  if (/^https:\/\//i.test(value)) {
    throw new Error(
      'the core hands the prober its decrypted bytes, which an HTTPS server cannot read: give ' +
        'a plain-HTTP host:port (for example a local nginx that proxies to the site)',
    );
  }
  let hostPort = value;
  if (/^http:\/\//i.test(value)) {
    const url = new URL(value);
    if (url.pathname !== '/' || url.search) {
      throw new Error('the fallback forwards whole requests: give the server, not a path');
    }
    hostPort = `${url.hostname}:${url.port || '80'}`;
  }
  const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):(\d{1,5})$/.exec(hostPort);
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 65535) {
    throw new Error(`must be host:port or http://host[:port], not "${text}"`);
  }
  return hostPort;
}

/**
 * Whether the node's inbound hands strangers to a fallback at all: TLS over tcp, or over ws
 * through its TLS front (core-config.ts wsFront).
 */
export function usesFallback(config: AgentConfig): boolean {
  return config.inbound.security === 'tls' && config.inbound.network !== 'grpc';
}

/** The fallback the core is given: the operator's upstream, else the decoy's loopback port. */
export function decoyFallbackDest(config: AgentConfig): string | undefined {
  if (config.decoy?.upstream) return config.decoy.upstream;
  return config.decoy?.port ? `127.0.0.1:${config.decoy.port}` : undefined;
}

/**
 * Starts the agent's decoy site for the daemon (none when the operator gave an upstream) on the
 * port the config keeps, or on a fresh port (kept for the next start) when that one is taken.
 */
export async function startConfiguredDecoy(store: AgentConfigStore): Promise<DecoySite | null> {
  const config = store.current;
  if (config.decoy?.upstream) return null;
  const kept = config.decoy?.port;
  let site: DecoySite | null = null;
  if (kept) site = await startDecoySite({ port: kept }).catch(() => null);
  site ??= await startDecoySite();
  if (site.port !== kept) {
    await store.update((current) => ({ ...current, decoy: { ...current.decoy, port: site.port } }));
  }
  return site;
}

export interface DecoyProbe {
  ok: boolean;
  /** The status line, or why none came. */
  detail: string;
}

/**
 * What the fallback answers a prober's request (doctor): connects to `dest`, sends a GET for `/`
 * with the node's name as Host and reads the status line.
 */
export function probeDecoy(
  dest: string,
  hostHeader: string,
  timeoutMs = 3_000,
): Promise<DecoyProbe> {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(dest);
  if (!match) return Promise.resolve({ ok: false, detail: `not host:port: ${dest}` });
  return new Promise((resolve) => {
    const socket = net.connect(Number(match[2]), match[1]);
    let text = '';
    const done = (result: DecoyProbe) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () =>
      done({ ok: false, detail: `no answer within ${timeoutMs} ms` }),
    );
    socket.on('error', (error) => done({ ok: false, detail: error.message }));
    socket.on('connect', () =>
      socket.write(`GET / HTTP/1.1\r\nHost: ${hostHeader}\r\nConnection: close\r\n\r\n`),
    );
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const line = text.split('\r\n')[0]!;
      if (text.includes('\r\n')) {
        done(
          /^HTTP\/1\.[01] \d{3}/.test(line)
            ? { ok: true, detail: line }
            : { ok: false, detail: `not an HTTP answer: ${JSON.stringify(line.slice(0, 60))}` },
        );
      }
    });
    socket.on('end', () => done({ ok: false, detail: 'closed without an answer' }));
  });
}
