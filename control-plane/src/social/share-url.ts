import type { SharePlatform } from '@scn/proto';

/**
 * A post URL as one claim: the same post spelled two ways (x.com or twitter.com,
 * www. or mobile., another user's path, a query, a fragment, a trailing slash, host case) is one
 * normalized URL, which the database keeps unique across all accounts.
 */
export interface NormalizedPost {
  /** The one spelling of the post: its claim key and what the verifier fetches. */
  url: string;
  /** The path of `url` (from the verifier's configured base in tests). */
  path: string;
}

const TWITTER_HOSTS = new Set([
  'x.com',
  'www.x.com',
  'mobile.x.com',
  'twitter.com',
  'www.twitter.com',
  'mobile.twitter.com',
]);
const INSTAGRAM_HOSTS = new Set(['instagram.com', 'www.instagram.com']);
const TELEGRAM_HOSTS = new Set(['t.me', 'www.t.me', 'telegram.me', 'www.telegram.me']);

/** /<user>/status/<id>, /i/status/<id>, /i/web/status/<id>, with optional /photo/1 etc. after. */
const TWITTER_PATH =
  /^\/(?:[A-Za-z0-9_]{1,15}|i|i\/web)\/status(?:es)?\/(\d{1,20})(?:\/(?:photo|video)\/\d{1,2})?\/?$/;
/** /p/<code>/, /reel/<code>/, /reels/<code>/, /tv/<code>/, optionally after /<user>. */
const INSTAGRAM_PATH =
  /^\/(?:[A-Za-z0-9._]{1,30}\/)?(?:p|reel|reels|tv)\/([A-Za-z0-9_-]{5,64})\/?$/;

/**
 * /<channel>/<id> or the web preview /s/<channel>/<id> of a public channel's post. Private
 * chats (/c/<id>/<id>) are refused: a post nobody else can open is not a public share. t.me
 * answers 200 for a deleted post too, so the payout job's check finds a Telegram post `up`
 * unless the channel itself is gone.
 */
const TELEGRAM_PATH = /^\/(?:s\/)?([A-Za-z][A-Za-z0-9_]{3,31})\/(\d{1,12})\/?$/;

/**
 * The normalized post of `text` on `platform`, or null when it is not an https link to a real
 * post of that platform (another host, http, a port, credentials, a profile or home page).
 */
export function normalizePostUrl(platform: SharePlatform, text: string): NormalizedPost | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return null;
  const host = url.hostname.toLowerCase();
  if (platform === 'twitter') {
    if (!TWITTER_HOSTS.has(host)) return null;
    const match = TWITTER_PATH.exec(url.pathname);
    if (!match) return null;
    // Tweet ids are unique whatever the user in the path; no leading zeros in one spelling.
    const id = BigInt(match[1]!).toString();
    if (id === '0') return null;
    const path = `/i/status/${id}`;
    return { url: `https://x.com${path}`, path };
  }
  if (platform === 'telegram') {
    if (!TELEGRAM_HOSTS.has(host)) return null;
    const match = TELEGRAM_PATH.exec(url.pathname);
    if (!match) return null;
    // Channel names are case-insensitive; no leading zeros in one spelling.
    const id = BigInt(match[2]!).toString();
    if (id === '0') return null;
    const path = `/${match[1]!.toLowerCase()}/${id}`;
    return { url: `https://t.me${path}`, path };
  }
  if (!INSTAGRAM_HOSTS.has(host)) return null;
  const match = INSTAGRAM_PATH.exec(url.pathname);
  if (!match) return null;
  // Shortcodes are case-sensitive; posts and reels share them.
  const path = `/p/${match[1]!}/`;
  return { url: `https://www.instagram.com${path}`, path };
}
