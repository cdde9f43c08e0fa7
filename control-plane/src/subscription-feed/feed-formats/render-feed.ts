import { groupFile } from '../../subscriptions/subscription-links';
import type { FeedFormat } from './client-format';
import {
  DEFAULT_RENDER_OPTIONS,
  feedServers,
  renderClash,
  renderSingBox,
  renderXray,
  type RenderOptions,
} from './renderers';

export interface RenderedFeed {
  contentType: string;
  /** The file's extension (the file is named after the feed's title: feedContentDisposition). */
  extension: 'txt' | 'json' | 'yaml';
  body: string;
}

/** The answer of the subscription URL in one format, from the links the feed serves. */
export function renderFeed(
  format: Exclude<FeedFormat, 'html'>,
  links: readonly string[],
  title: string,
  /** Certificates (PEM) by the SHA-256 the links pin (`pcs`). */
  certificates: ReadonlyMap<string, string> = new Map(),
  /** The app asking and the options of the request (`?fakeip=`). */
  options: RenderOptions = DEFAULT_RENDER_OPTIONS,
): RenderedFeed {
  switch (format) {
    case 'base64':
      return { contentType: 'text/plain; charset=utf-8', extension: 'txt', body: groupFile(links) };
    case 'singbox':
      return json(renderSingBox(feedServers(links, certificates), options));
    case 'clash':
      return {
        contentType: 'text/yaml; charset=utf-8',
        extension: 'yaml',
        body: renderClash(feedServers(links, certificates), options),
      };
    case 'xray':
    case 'v2ray':
      return json(
        renderXray(feedServers(links, certificates), {
          core: format,
          remarks: title,
          client: options.client,
        }),
      );
  }
}

function json(body: string): RenderedFeed {
  return { contentType: 'application/json; charset=utf-8', extension: 'json', body };
}

/**
 * `Content-Disposition` naming the file after the feed's title, which apps that name a profile
 * by its file (Clash Verge) show: `filename*` in UTF-8 (RFC 6266, RFC 5987) and an ASCII
 * `filename` for the clients that read only that one.
 */
export function feedContentDisposition(title: string, extension: string): string {
  const name = `${title}.${extension}`;
  const ascii = name
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\]/g, '')
    .trim();
  const fallback = ascii && ascii !== `.${extension}` ? ascii : `scn-subscription.${extension}`;
  return `attachment; filename="${fallback}"; filename*=UTF-8''${rfc5987(name)}`;
}

/** RFC 5987 `value-chars`: attr-chars as they are, every other byte percent-encoded. */
function rfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
