import type { X509Certificate } from 'node:crypto';
import http2 from 'node:http2';
import net from 'node:net';
import tls from 'node:tls';
import { blockedTargetReason } from './reality-targets';

/**
 * Checks a REALITY target from the node, as XTLS's RealiTLScanner and PasarGuard's scanner do:
 * one TLS connection offering h2 and http/1.1 and the groups X25519, P-256, P-384, then one GET
 * for `/`. reality-targets.ts says why each property matters.
 */

export type TargetProperty = 'connect' | 'tls13' | 'h2' | 'x25519' | 'certificate' | 'cdn' | 'name';

export interface TargetProblem {
  property: TargetProperty;
  detail: string;
}

export interface RealityTargetReport {
  /** `host:port` as configured. */
  target: string;
  tlsVersion: string | null;
  alpn: string | null;
  keyExchange: string | null;
  issuer: string | null;
  problems: TargetProblem[];
}

export interface RealityTargetCheckOptions {
  /** `host:port` the core relays to. */
  dest: string;
  /** The name clients send (SNI); default the target's host. */
  serverName?: string;
  /** Where to connect instead of resolving `dest` (tests: a loopback server). */
  connectTo?: { host: string; port: number };
  /** Trust anchors instead of the system's (tests: their own certificate). */
  ca?: string | string[];
  timeoutMs?: number;
}

/**
 * Response headers only a CDN or a shared cache in front of the site adds (each vendor's
 * documentation of its own headers): Cloudflare `cf-ray`/`cf-cache-status` and `server:
 * cloudflare`, CloudFront `x-amz-cf-id`/`x-amz-cf-pop`, Fastly `x-fastly-request-id` and
 * `x-served-by: cache-…`, Akamai `server: AkamaiGHost`, Azure Front Door `x-azure-ref`, and a
 * `via` naming a cache (varnish, cloudfront, akamai, google's load balancer).
 */
const CDN_HEADERS: readonly string[] = [
  'cf-ray',
  'cf-cache-status',
  'x-amz-cf-id',
  'x-amz-cf-pop',
  'x-fastly-request-id',
  'x-akamai-transformed',
  'x-azure-ref',
];
const CDN_SERVER = /cloudflare|cloudfront|akamaighost|akamainetstorage|fastly|bunnycdn|cdn77/i;
const CDN_VIA = /varnish|cloudfront|akamai|fastly|1\.1 google|cdn/i;
/** Certificate issuers that sign only for sites on their own CDN. */
const CDN_ISSUER = /cloudflare/i;

/** The first CDN marker among response headers and the certificate's issuer, or null. */
export function cdnMarker(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  issuer: string | null,
): string | null {
  const value = (name: string) => {
    const raw = headers[name];
    return Array.isArray(raw) ? raw.join(', ') : raw;
  };
  const header = CDN_HEADERS.find((name) => value(name) !== undefined);
  if (header) return `response header ${header}`;
  const server = value('server');
  if (server && CDN_SERVER.test(server)) return `server: ${server}`;
  const servedBy = value('x-served-by');
  if (servedBy && /^cache-/i.test(servedBy)) return `x-served-by: ${servedBy}`;
  const via = value('via');
  if (via && CDN_VIA.test(via)) return `via: ${via}`;
  if (issuer && CDN_ISSUER.test(issuer)) return `certificate issued by ${issuer}`;
  return null;
}

function splitHostPort(dest: string): { host: string; port: number } {
  const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(dest);
  return match ? { host: match[1]!, port: Number(match[2]) } : { host: dest, port: 443 };
}

/** `O=Let's Encrypt, CN=R11` from the certificate's issuer. */
function issuerName(leaf: X509Certificate | undefined): string | null {
  const issuer = leaf?.issuer;
  if (!issuer) return null;
  const fields = issuer.split('\n').filter((line) => /^(O|CN)=/.test(line));
  return fields.join(', ') || issuer.replace(/\n/g, ', ');
}

/** Response headers of `GET /` over the connection (h2 when negotiated, else HTTP/1.1). */
function fetchHeaders(
  socket: tls.TLSSocket,
  serverName: string,
  timeoutMs: number,
): Promise<Record<string, string | string[] | undefined>> {
  if (socket.alpnProtocol === 'h2') {
    return new Promise((resolve, reject) => {
      const session = http2.connect(`https://${serverName}`, { createConnection: () => socket });
      session.on('error', reject);
      const request = session.request({ ':method': 'GET', ':path': '/' });
      request.setTimeout(timeoutMs, () => reject(new Error('no HTTP/2 answer')));
      request.on('response', (headers) => {
        resolve({ ...headers } as Record<string, string | string[] | undefined>);
        request.close();
        session.close();
      });
      request.on('error', reject);
      request.end();
    });
  }
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('no HTTP/1.1 answer')), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      clearTimeout(timer);
      const headers: Record<string, string> = {};
      for (const line of text.slice(0, end).split('\r\n').slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0)
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve(headers);
    });
    socket.write(
      `GET / HTTP/1.1\r\nHost: ${serverName}\r\nUser-Agent: Mozilla/5.0\r\nAccept: */*\r\n` +
        'Connection: close\r\n\r\n',
    );
  });
}

/** Connects to the target once and reports every property it lacks. */
export async function checkRealityTarget(
  options: RealityTargetCheckOptions,
): Promise<RealityTargetReport> {
  const target = splitHostPort(options.dest);
  const serverName = options.serverName ?? target.host;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const report: RealityTargetReport = {
    target: options.dest,
    tlsVersion: null,
    alpn: null,
    keyExchange: null,
    issuer: null,
    problems: [],
  };
  const blocked = blockedTargetReason(serverName);
  if (blocked) report.problems.push({ property: 'name', detail: blocked });
  const where = options.connectTo ?? target;
  let socket: tls.TLSSocket;
  try {
    socket = await new Promise<tls.TLSSocket>((resolve, reject) => {
      const connection = tls.connect({
        host: where.host,
        port: where.port,
        servername: serverName,
        ALPNProtocols: ['h2', 'http/1.1'],
        ecdhCurve: 'X25519:P-256:P-384',
        minVersion: 'TLSv1.2',
        // Verified below, so that a bad certificate is one problem among the others.
        rejectUnauthorized: false,
        ...(options.ca ? { ca: options.ca } : {}),
      });
      connection.setTimeout(timeoutMs, () => {
        connection.destroy();
        reject(new Error(`no TLS handshake within ${timeoutMs} ms`));
      });
      connection.once('secureConnect', () => {
        connection.setTimeout(0);
        resolve(connection);
      });
      connection.once('error', reject);
    });
  } catch (error) {
    report.problems.push({ property: 'connect', detail: (error as Error).message });
    return report;
  }
  try {
    report.tlsVersion = socket.getProtocol();
    report.alpn = socket.alpnProtocol || null;
    const key = socket.getEphemeralKeyInfo();
    report.keyExchange = key && 'name' in key ? (key.name ?? null) : null;
    // Read once: Node 20 hands the peer's X509Certificate out only on the first call.
    const leaf = socket.getPeerX509Certificate();
    report.issuer = issuerName(leaf);
    if (report.tlsVersion !== 'TLSv1.3') {
      report.problems.push({
        property: 'tls13',
        detail: `it negotiates ${report.tlsVersion ?? 'an unknown version'}, not TLS 1.3`,
      });
    }
    if (report.alpn !== 'h2') {
      report.problems.push({
        property: 'h2',
        detail: `it answers ALPN with ${report.alpn ?? 'nothing'}, not h2`,
      });
    }
    if (!report.keyExchange?.includes('X25519')) {
      report.problems.push({
        property: 'x25519',
        detail: `its key exchange is ${report.keyExchange ?? 'unknown'}, not X25519`,
      });
    }
    const named = net.isIP(serverName) ? leaf?.checkIP(serverName) : leaf?.checkHost(serverName);
    if (!socket.authorized || !named) {
      report.problems.push({
        property: 'certificate',
        detail: `its certificate is not valid for ${serverName}: ${
          socket.authorized ? 'the name is not on it' : String(socket.authorizationError)
        }`,
      });
    }
    const headers = await fetchHeaders(socket, serverName, timeoutMs).catch(
      () => ({}) as Record<string, string>,
    );
    const cdn = cdnMarker(headers, report.issuer);
    if (cdn) report.problems.push({ property: 'cdn', detail: `it is behind a CDN (${cdn})` });
  } finally {
    socket.destroy();
  }
  return report;
}

/** One line: `TLS 1.3, h2, X25519, issuer O=…` */
export function describeTargetReport(report: RealityTargetReport): string {
  return [
    report.tlsVersion ?? 'no TLS',
    report.alpn ? `ALPN ${report.alpn}` : 'no ALPN',
    report.keyExchange ?? 'key exchange unknown',
    ...(report.issuer ? [`issuer ${report.issuer}`] : []),
  ].join(', ');
}
