/**
 * VLESS connection strings (`vless://<uuid>@<host>:<port>?<params>#<name>`), parsed and built
 * the same way by the control plane and the portal.
 */
export interface VlessLink {
  uuid: string;
  host: string;
  port: number;
  params: Record<string, string>;
  name: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HOST =
  /^(\[[0-9a-fA-F:.]+\]|[0-9.]+|[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*)$/;
/** The parameters a client needs; anything else in a pasted link is dropped. */
export const VLESS_PARAMS = [
  'security',
  'sni',
  'fp',
  'pbk',
  'sid',
  'flow',
  'type',
  'encryption',
  'path',
  'host',
  'serviceName',
] as const;

/** Parses a VLESS link; null when it is not one. */
export function parseVlessLink(input: string): VlessLink | null {
  const text = input.trim();
  if (!text.toLowerCase().startsWith('vless://') || text.length > 4096) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const uuid = decodeOrNull(url.username);
  const name = decodeOrNull(url.hash.slice(1));
  const host = url.hostname;
  const port = Number(url.port);
  if (uuid === null || name === null || !UUID.test(uuid) || !HOST.test(host)) return null;
  if (!Number.isInteger(port) || port < 1 || port > 65535) return null;
  const params: Record<string, string> = {};
  for (const key of VLESS_PARAMS) {
    const value = url.searchParams.get(key);
    if (value === null || value.length > 256) continue;
    if (CONTROL.test(value)) return null;
    params[key] = value;
  }
  return {
    uuid: uuid.toLowerCase(),
    host,
    port,
    params,
    name: name.replace(CONTROL_RUN, ' ').trim().slice(0, 100),
  };
}

/** Control characters: no client parameter has them, and PostgreSQL cannot store NUL. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_RUN = /[\u0000-\u001f\u007f]+/g;

/** A percent-decoded URL part; null when its escapes are malformed (`%E0%A4`, a lone `%`). */
function decodeOrNull(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/** Builds a VLESS link (parameters in a stable order, empty ones left out). */
export function buildVlessLink(link: VlessLink): string {
  const query = new URLSearchParams();
  for (const key of VLESS_PARAMS) {
    const value = link.params[key];
    if (value) query.set(key, value);
  }
  const search = query.toString();
  return `vless://${link.uuid}@${link.host}:${link.port}${search ? `?${search}` : ''}#${encodeURIComponent(link.name)}`;
}
