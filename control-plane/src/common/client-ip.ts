import type { Request } from 'express';

/** The caller's address as Express resolved it under TRUST_PROXY, without the IPv4-mapped prefix. */
export function clientIp(request: Request): string {
  const ip = request.ip ?? request.socket.remoteAddress ?? 'unknown';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

export function userAgent(request: Request, max = 512): string | null {
  const value = request.headers['user-agent'];
  return typeof value === 'string' ? value.slice(0, max) : null;
}
