/**
 * Compares two VLESS links with the URL standard's own parser (what browsers, Node and most
 * apps use), not with the product's parser: the same uuid, host and port, and the same
 * parameters (order aside, values decoded), each written in canonical escapes.
 */
export interface LinkParts {
  uuid: string;
  hostname: string;
  port: string;
  params: Array<[string, string]>;
  name: string;
}

export function linkParts(link: string): LinkParts {
  const url = new URL(link);
  return {
    uuid: decodeURIComponent(url.username).toLowerCase(),
    // The URL standard canonicalizes a bracketed IPv6 itself; DNS names compare lower-case.
    hostname: url.hostname.toLowerCase(),
    port: url.port,
    params: [...url.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    name: decodeURIComponent(url.hash.slice(1)),
  };
}

/** Every `key=value` of a link's query is `encodeURIComponent(key)=encodeURIComponent(value)`. */
export function canonicallyEscaped(link: string): boolean {
  const query = new URL(link).search.slice(1);
  if (!query) return true;
  return query.split('&').every((pair) => {
    const [key, value = ''] = pair.split('=');
    const decode = (text: string) => decodeURIComponent(text);
    return encodeURIComponent(decode(key!)) === key && encodeURIComponent(decode(value)) === value;
  });
}
