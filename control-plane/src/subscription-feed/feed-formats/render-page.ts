import { appImportLinks, formatHostPort, type Locale } from '@scn/proto';
import { qrDataUrl } from '../../common/qr/qr-code';
import { INTL_TAGS, isolate, translator } from '../../i18n/catalogues';
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
  /** The visitor's language (Accept-Language or ?lang=): every word of the page, `<html lang dir>`. */
  locale: Locale;
  /** Servers left out because they are blocked on the requester's network, and that network. */
  blocked?: { names: readonly string[]; network: string | null };
}

/** The servers left out of the apps because they are blocked where the page was asked from. */
function blockedSection(
  input: FeedPageInput,
  text: (key: string, values?: Record<string, string>) => string,
): string {
  if (!input.blocked || input.blocked.names.length === 0) return '';
  const network = input.blocked.network
    ? isolate(input.blocked.network)
    : text('blocked.yourNetwork');
  const names = input.blocked.names.map((name) => `<li class="notice">${escapeHtml(name)}</li>`);
  return `<h2>${text('blocked.heading')}</h2>
<p>${text('blocked.explain', { network })}</p>
<ul>
${names.join('\n')}
</ul>`;
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
  const t = translator('sub-page', input.locale);
  // Escaped after formatting: a server's name is a value of the message. Names, hosts and app
  // names stay left to right inside Persian text (isolates).
  const text = (key: string, values?: Record<string, string>) => escapeHtml(t(key, values));
  const servers = feedServers(input.links);
  const urlQr = qrDataUrl(input.url);
  const active = input.state === 'active';
  const buttons = importLinks(input.url, input.title)
    .map(
      ({ app, href }) =>
        `<a class="button" href="${escapeHtml(href)}">${text('importTo', { app: isolate(app) })}</a>`,
    )
    .join('\n');
  const list = active
    ? servers
        .map((server) => {
          const qr = qrDataUrl(server.link);
          const name = { name: isolate(server.name) };
          const image = qr.qrCode
            ? `<img src="${qr.qrCode}" width="180" height="180" alt="${text('serverQrAlt', name)}">`
            : `<p>${text('qrTooComplex')}</p>`;
          return `<li class="server">
<h3>${escapeHtml(server.name)}</h3>
<p dir="ltr">${escapeHtml(formatHostPort(server.host, server.port))} · ${escapeHtml(server.security)} · ${escapeHtml(server.network)}</p>
${image}
<textarea readonly rows="3" dir="ltr" aria-label="${text('serverLinkLabel', name)}">${escapeHtml(server.link)}</textarea>
</li>`;
        })
        .join('\n')
    : servers.map((server) => `<li class="notice">${escapeHtml(server.name)}</li>`).join('\n');
  const paidUntil = new Intl.DateTimeFormat(INTL_TAGS[input.locale], {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(input.expiresAt);
  const status = active
    ? text('status.paidUntil', { date: paidUntil })
    : `${text('status.notRunning')} <a href="${escapeHtml(input.dashboardUrl)}">${text('status.openDashboard')}</a>`;
  const dir = input.locale === 'fa' ? 'rtl' : 'ltr';
  return `<!doctype html>
<html lang="${input.locale}" dir="${dir}">
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
<h2>${text('addToApp')}</h2>
<p>${buttons}</p>
<p>${text('scanUrl')}</p>
${urlQr.qrCode ? `<img src="${urlQr.qrCode}" width="180" height="180" alt="${text('urlQrAlt')}">` : ''}
<textarea readonly rows="2" dir="ltr" aria-label="${text('urlLabel')}">${escapeHtml(input.url)}</textarea>
<h2>${text('servers')}</h2>
<ul>
${list}
</ul>
${blockedSection(input, text)}
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
