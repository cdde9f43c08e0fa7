import { appImportLinks, formatHostPort } from '@scn/proto';
import { qrDataUrl } from '../../common/qr/qr-code';
import type { FeedState } from '../subscription-feed';
import { feedServers } from './renderers';

export interface FeedPageInput {
  title: string;
  /** The subscription URL the import buttons hand to the apps. */
  url: string;
  state: FeedState;
  expiresAt: Date;
  links: readonly string[];
  dashboardUrl: string;
}

/** One-tap imports: the deep links of `@scn/proto`, shared with the portal's QR dialog. */
export function importLinks(url: string, name: string): { app: string; href: string }[] {
  return appImportLinks(url, name).map(({ app, href }) => ({ app, href }));
}

/**
 * The subscription URL opened in a browser: the servers with a QR code of each link, a QR code
 * of the URL itself, and import buttons. No script (the CSP allows none); images are data: URLs.
 * A subscription that is not running shows why and where to fix it, never its links.
 */
export function renderFeedPage(input: FeedPageInput): string {
  const servers = feedServers(input.links);
  const urlQr = qrDataUrl(input.url);
  const active = input.state === 'active';
  const buttons = importLinks(input.url, input.title)
    .map(({ app, href }) => `<a class="button" href="${escapeHtml(href)}">Import to ${app}</a>`)
    .join('\n');
  const list = active
    ? servers
        .map((server) => {
          const qr = qrDataUrl(server.link);
          const image = qr.qrCode
            ? `<img src="${qr.qrCode}" width="180" height="180" alt="QR code of ${escapeHtml(server.name)}">`
            : '<p>QR code too complex: copy the link instead.</p>';
          return `<li class="server">
<h3>${escapeHtml(server.name)}</h3>
<p>${escapeHtml(formatHostPort(server.host, server.port))} · ${escapeHtml(server.security)} · ${escapeHtml(server.network)}</p>
${image}
<textarea readonly rows="3" aria-label="Link of ${escapeHtml(server.name)}">${escapeHtml(server.link)}</textarea>
</li>`;
        })
        .join('\n')
    : servers.map((server) => `<li class="notice">${escapeHtml(server.name)}</li>`).join('\n');
  const status = active
    ? `Paid until ${escapeHtml(input.expiresAt.toISOString().slice(0, 16).replace('T', ' '))} UTC`
    : `Not running: <a href="${escapeHtml(input.dashboardUrl)}">open your dashboard</a>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(input.title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:48rem;margin:0 auto;padding:1rem;color:#111}
.button{display:inline-block;margin:.25rem;padding:.5rem .9rem;border-radius:.4rem;background:#1d4ed8;color:#fff;text-decoration:none}
ul{list-style:none;padding:0}.server{border:1px solid #ddd;border-radius:.5rem;padding:1rem;margin:1rem 0}
textarea{width:100%;font-family:monospace;font-size:.8rem}.notice{font-weight:600}
</style>
</head>
<body>
<h1>${escapeHtml(input.title)}</h1>
<p>${status}</p>
<h2>Add to your app</h2>
<p>${buttons}</p>
<p>Or scan the subscription URL:</p>
${urlQr.qrCode ? `<img src="${urlQr.qrCode}" width="180" height="180" alt="QR code of the subscription URL">` : ''}
<textarea readonly rows="2" aria-label="Subscription URL">${escapeHtml(input.url)}</textarea>
<h2>Servers</h2>
<ul>
${list}
</ul>
</body>
</html>
`;
}

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );
}
