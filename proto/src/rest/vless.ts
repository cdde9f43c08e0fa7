import { UUID_PATTERN } from './common.contract';

/**
 * VLESS connection strings (`vless://<uuid>@<host>:<port>?<params>#<name>`), parsed and built
 * the same way by the control plane and the portal, in the shape of the XTLS share-link proposal
 * (XTLS/Xray-core discussion 716): a valid URL, IPv6 hosts in brackets, every value
 * encodeURIComponent-escaped, each parameter at most once, parameter order irrelevant.
 */
export interface VlessLink {
  uuid: string;
  /** Canonical: lower-case DNS name, dotted IPv4, or compressed IPv6 without brackets. */
  host: string;
  port: number;
  /** Every parameter of the link, the modelled ones checked, all others kept as they came. */
  params: Record<string, string>;
  name: string;
}

export type VlessLinkCheck = { ok: true; link: VlessLink } | { ok: false; problem: string };

const DNS_NAME =
  /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const PARAM_KEY = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_PARAMS = 64;
/** xhttp's `extra` is a JSON object; 2 KiB holds any real one (the whole link is 4 KiB). */
const MAX_VALUE = 2048;

export const VLESS_SECURITY = ['none', 'tls', 'reality'] as const;
/** Xray and v2ray transports: `raw` is Xray's new name of `tcp`, `splithttp` the old `xhttp`. */
export const VLESS_NETWORKS = [
  'tcp',
  'raw',
  'ws',
  'grpc',
  'http',
  'h2',
  'httpupgrade',
  'xhttp',
  'splithttp',
  'kcp',
  'mkcp',
  'quic',
] as const;

/**
 * The parameters the product models (the agent reports them, the market shows them): checked
 * on upload, and written first, in this order. Any other parameter is kept byte for byte.
 */
export const VLESS_PARAMS = [
  'encryption',
  'security',
  'sni',
  'fp',
  'pbk',
  'sid',
  'flow',
  'type',
  'path',
  'host',
  'serviceName',
] as const;

const FORMATS: Partial<Record<(typeof VLESS_PARAMS)[number], (value: string) => boolean>> = {
  // `none`, or Xray's VLESS encryption settings (`mlkem768x25519plus.native.0rtt.<key>`).
  encryption: (value) => /^[A-Za-z0-9._+/=-]{1,1024}$/.test(value),
  security: (value) => (VLESS_SECURITY as readonly string[]).includes(value),
  type: (value) => (VLESS_NETWORKS as readonly string[]).includes(value),
  sni: (value) => value === '' || canonicalHost(value) !== null,
  fp: (value) => /^[A-Za-z0-9_-]{0,32}$/.test(value),
  pbk: (value) => /^[A-Za-z0-9_+/=-]{0,128}$/.test(value),
  sid: (value) => /^[0-9a-fA-F]{0,16}$/.test(value),
  flow: (value) => /^(xtls-rprx-[a-z0-9-]{1,48})?$/.test(value),
};

export interface VlessParseOptions {
  /**
   * Check the modelled parameters' values (default). Off to read back a link the product stored
   * earlier: one accepted by older, looser rules is served as it was, not dropped.
   */
  checkValues?: boolean;
}

/** Parses a VLESS link; null when it is not one (checkVlessLink says why). */
export function parseVlessLink(input: string, options?: VlessParseOptions): VlessLink | null {
  const checked = checkVlessLink(input, options);
  return checked.ok ? checked.link : null;
}

/** Parses a VLESS link, or names the first thing wrong with it. */
export function checkVlessLink(input: string, options: VlessParseOptions = {}): VlessLinkCheck {
  const text = input.trim();
  if (!text.toLowerCase().startsWith('vless://')) return fail('it must start with vless://');
  if (text.length > 4096) return fail('it is longer than 4096 characters');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail('it is not a valid URL (an IPv6 address must be in brackets)');
  }
  const uuid = decodeOrNull(url.username);
  if (uuid === null || !UUID_PATTERN.test(uuid)) return fail('the user id before @ must be a UUID');
  const host = canonicalHost(url.hostname);
  if (host === null) return fail('the host must be a DNS name, an IPv4 or a bracketed IPv6');
  const port = Number(url.port);
  if (!url.port || !Number.isInteger(port) || port < 1 || port > 65535) {
    return fail('the port must be 1-65535');
  }
  const name = decodeOrNull(url.hash.slice(1));
  if (name === null) return fail('the name after # has a malformed %-escape');
  const params = readParams(url.search, options.checkValues ?? true);
  if (typeof params === 'string') return fail(params);
  return {
    ok: true,
    link: {
      uuid: uuid.toLowerCase(),
      host,
      port,
      params,
      name: name.replace(CONTROL_RUN, ' ').trim().slice(0, 100),
    },
  };
}

function fail(problem: string): VlessLinkCheck {
  return { ok: false, problem };
}

/**
 * The query as a record, or what is wrong with it. `+` reads as a space, as URLSearchParams, Go's
 * url.ParseQuery and v2rayN read it; the builder then writes a space as %20, which every client
 * reads the same way.
 */
function readParams(search: string, checkValues: boolean): Record<string, string> | string {
  const params: Record<string, string> = {};
  const pairs = search.replace(/^\?/, '').split('&').filter(Boolean);
  if (pairs.length > MAX_PARAMS) return `it has more than ${MAX_PARAMS} parameters`;
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const key = decodeOrNull((at < 0 ? pair : pair.slice(0, at)).replace(/\+/g, ' '));
    const value = decodeOrNull(at < 0 ? '' : pair.slice(at + 1).replace(/\+/g, ' '));
    if (key === null || value === null) return 'a parameter has a malformed %-escape';
    if (!PARAM_KEY.test(key) || key === '__proto__') return `parameter name "${key}" is invalid`;
    if (Object.prototype.hasOwnProperty.call(params, key)) return `parameter ${key} appears twice`;
    if (value.length > MAX_VALUE) return `parameter ${key} is longer than ${MAX_VALUE} characters`;
    if (CONTROL.test(value)) return `parameter ${key} has control characters`;
    const format = FORMATS[key as keyof typeof FORMATS];
    if (checkValues && format && !format(value))
      return `parameter ${key}=${value} is not supported`;
    params[key] = value;
  }
  return params;
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

/**
 * A host in the one form the product stores: IPv6 compressed and lower-case without brackets
 * (RFC 5952, as the URL standard writes it), IPv4 as a plain dotted quad, a DNS name lower-case
 * (IDN as xn--). Accepts `[2001:db8::1]` and `2001:DB8:0::1` alike; null when it is none of them
 * (unbalanced brackets, zone ids, `999.1.1.1`, `1.2.3`, `bad_host!`).
 */
export function canonicalHost(input: string): string | null {
  const text = input.trim();
  const bracketed = text.startsWith('[') || text.endsWith(']');
  if (bracketed && !(text.startsWith('[') && text.endsWith(']'))) return null;
  const bare = bracketed ? text.slice(1, -1) : text;
  if (bare.includes(':')) return canonicalIpv6(bare);
  if (bracketed || bare.length === 0 || bare.length > 253) return null;
  if (/^[0-9.]+$/.test(bare)) return IPV4.test(bare) ? bare : null;
  const decoded = decodeOrNull(bare);
  if (decoded === null || /[\s/\\?#@:%]/.test(decoded)) return null;
  let name: string;
  try {
    // The URL standard's host parser: lower-cases and turns an IDN into its xn-- form.
    name = new URL(`http://${decoded}/`).hostname;
  } catch {
    return null;
  }
  // A name the host parser read as a number (`0x7f.1`) is not the name the user meant.
  return DNS_NAME.test(name) && !/^[0-9.]+$/.test(name) && !/\.\d+$/.test(name) ? name : null;
}

function canonicalIpv6(text: string): string | null {
  if (!/^[0-9a-fA-F:.]{2,45}$/.test(text)) return null;
  try {
    return new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

/** The host as a URL authority writes it: IPv6 in brackets, anything else as it is. */
export function urlHost(host: string): string {
  const canonical = canonicalHost(host) ?? host;
  return canonical.includes(':') ? `[${canonical}]` : canonical;
}

/** `host:port` for people and URLs: `[2001:db8::1]:443`, `node.example.net:443`. */
export function formatHostPort(host: string, port: number): string {
  return `${urlHost(host)}:${port}`;
}

/**
 * Builds a VLESS link: the modelled parameters first in a stable order, then the others sorted,
 * every parameter that is present (also an empty one, as uploaded), keys and values
 * encodeURIComponent-escaped, IPv6 in brackets.
 */
export function buildVlessLink(link: VlessLink): string {
  const modelled = VLESS_PARAMS.filter((key) => link.params[key] !== undefined);
  const others = Object.keys(link.params)
    .filter((key) => !(VLESS_PARAMS as readonly string[]).includes(key))
    .sort();
  const query = [...modelled, ...others]
    .map((key) => `${encodeURIComponent(key)}=${encodeURIComponent(link.params[key]!)}`)
    .join('&');
  const name = link.name ? `#${encodeURIComponent(link.name)}` : '';
  return `vless://${link.uuid}@${urlHost(link.host)}:${link.port}${query ? `?${query}` : ''}${name}`;
}
