import {
  isShareRegionBlocked,
  type AvailablePlatforms,
  type RecordShareResponse,
  type SharePlatform,
  SOCIAL_MESSAGES,
} from '@scn/proto';

/**
 * The Earn SSL Tokens modal's states (docs/product/states.md#market-and-account-states Share flow): initial, then sharing (a platform
 * chosen, only if available), then twitter_sharing or instagram_sharing (after clicking share),
 * then url_verification (after 'I've Posted'), then validating, then pending_verification on
 * success or error on failure. Error 'Try Again' returns to url_verification if a URL was
 * entered, else initial; 'Choose a different platform' or Cancel resets to initial. A completed
 * state exists but is not reached here.
 */
export type ShareStep =
  | 'initial'
  | 'sharing'
  | 'twitter_sharing'
  | 'instagram_sharing'
  | 'telegram_sharing'
  | 'url_verification'
  | 'validating'
  | 'pending_verification'
  | 'error'
  | 'completed';

export interface ShareFlow {
  step: ShareStep;
  platform: SharePlatform | null;
  url: string;
  /** The URL field's own problem (docs/product/input-rules.md#market-and-account-input), shown under it without leaving the step. */
  urlError: UrlProblem | null;
  /** The error screen's message and pseudo code (the last 6 digits of the time). */
  error: { message: string; code: string } | null;
  reward: RecordShareResponse['pendingReward'] | null;
}

export type ShareEvent =
  | { type: 'choose'; platform: SharePlatform; available: AvailablePlatforms }
  | { type: 'share' }
  | { type: 'posted' }
  | { type: 'url'; url: string }
  | { type: 'submit' }
  | { type: 'succeeded'; reward: RecordShareResponse['pendingReward'] }
  | { type: 'failed'; message: string; at: number }
  | { type: 'retry' }
  | { type: 'reset' };

export const INITIAL_FLOW: ShareFlow = {
  step: 'initial',
  platform: null,
  url: '',
  urlError: null,
  error: null,
  reward: null,
};

/** docs/product/messages.md#market-and-account-messages: the error screen's pseudo error code, the last 6 digits of the time. */
export function pseudoErrorCode(at: number): string {
  return String(Math.trunc(at)).slice(-6).padStart(6, '0');
}

/** docs/product/input-rules.md#market-and-account-input's two checks of the URL (SOCIAL_MESSAGES' keys, translated in the page). */
export type UrlProblem = 'urlRequired' | 'urlNotHttp';

/** docs/product/input-rules.md#market-and-account-input: the URL's own checks, before any call; null when it may be sent. */
export function urlProblem(url: string): UrlProblem | null {
  const text = url.trim();
  if (text.length === 0) return 'urlRequired';
  if (!/^https?:\/\//i.test(text)) return 'urlNotHttp';
  return null;
}

export function shareReducer(flow: ShareFlow, event: ShareEvent): ShareFlow {
  switch (event.type) {
    case 'choose':
      if (flow.step !== 'initial' || !event.available[event.platform]) return flow;
      return { ...INITIAL_FLOW, step: 'sharing', platform: event.platform };
    case 'share':
      if (flow.step !== 'sharing' || !flow.platform) return flow;
      return { ...flow, step: `${flow.platform}_sharing` };
    case 'posted':
      if (
        flow.step !== 'twitter_sharing' &&
        flow.step !== 'instagram_sharing' &&
        flow.step !== 'telegram_sharing'
      )
        return flow;
      return { ...flow, step: 'url_verification' };
    case 'url':
      return flow.step === 'url_verification' ? { ...flow, url: event.url, urlError: null } : flow;
    case 'submit': {
      if (flow.step !== 'url_verification') return flow;
      const problem = urlProblem(flow.url);
      if (problem) return { ...flow, urlError: problem };
      return { ...flow, step: 'validating', urlError: null };
    }
    case 'succeeded':
      if (flow.step !== 'validating') return flow;
      return { ...flow, step: 'pending_verification', reward: event.reward, error: null };
    case 'failed':
      if (flow.step !== 'validating') return flow;
      return {
        ...flow,
        step: 'error',
        error: {
          message: event.message || SOCIAL_MESSAGES.validateFailed,
          code: pseudoErrorCode(event.at),
        },
      };
    case 'retry':
      if (flow.step !== 'error') return flow;
      return flow.url.trim()
        ? { ...flow, step: 'url_verification', error: null }
        : { ...INITIAL_FLOW };
    case 'reset':
      return { ...INITIAL_FLOW };
  }
}

/** The browser's IANA time zone (what the server computes the reward in). */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** docs/product/messages.md#market-and-account-messages: the region block, decided from the browser's time zone. */
export function regionBlocked(timeZone: string | undefined = browserTimeZone()): boolean {
  return isShareRegionBlocked(timeZone);
}

/**
 * Where the share button sends the user: X's post intent with the text filled in, or Telegram's
 * share link (the link and the text, posted to a chat or channel the user picks). `text` is the
 * post in the reader's language; the link stays the portal's.
 */
export function twitterIntentUrl(text: string): string {
  return `https://x.com/intent/post?text=${encodeURIComponent(text)}`;
}

export function telegramShareUrl(publicUrl: string, text: string): string {
  return `https://t.me/share/url?url=${encodeURIComponent(publicUrl)}&text=${encodeURIComponent(text)}`;
}
