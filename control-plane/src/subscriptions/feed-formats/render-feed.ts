import { groupFile } from '../subscription-links';
import type { FeedFormat } from './client-format';
import { feedServers, renderClash, renderSingBox, renderXray } from './renderers';

export interface RenderedFeed {
  contentType: string;
  fileName: string;
  body: string;
}

/** The answer of the subscription URL in one format, from the links the feed serves. */
export function renderFeed(
  format: Exclude<FeedFormat, 'html'>,
  links: readonly string[],
  title: string,
  /** Certificates (PEM) by the SHA-256 the links pin (`pcs`). */
  certificates: ReadonlyMap<string, string> = new Map(),
): RenderedFeed {
  switch (format) {
    case 'base64':
      return {
        contentType: 'text/plain; charset=utf-8',
        fileName: 'scn-subscription.txt',
        body: groupFile(links),
      };
    case 'singbox':
      return json('scn-subscription.json', renderSingBox(feedServers(links, certificates)));
    case 'clash':
      return {
        contentType: 'text/yaml; charset=utf-8',
        fileName: 'scn-subscription.yaml',
        body: renderClash(feedServers(links, certificates)),
      };
    case 'xray':
    case 'v2ray':
      return json(
        `scn-subscription-${format}.json`,
        renderXray(feedServers(links, certificates), { core: format, remarks: title }),
      );
  }
}

function json(fileName: string, body: string): RenderedFeed {
  return { contentType: 'application/json; charset=utf-8', fileName, body };
}
