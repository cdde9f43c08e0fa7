import { SOCIAL_MESSAGES, type SharePlatform } from '@scn/proto';
import { DomainException, type ErrorKind } from '../common/domain.exception';

export type SocialErrorCode =
  | 'time_zone_invalid'
  | 'url_not_platform'
  | 'already_shared'
  | 'post_already_claimed'
  | 'daily_cap_reached';

const KINDS: Record<SocialErrorCode, ErrorKind> = {
  time_zone_invalid: 'invalid',
  url_not_platform: 'invalid',
  // The 7-day limit per platform and the one claim per post: the state forbids it now.
  already_shared: 'conflict',
  post_already_claimed: 'conflict',
  daily_cap_reached: 'rate_limited',
};

const DEFAULT_MESSAGES: Record<SocialErrorCode, string> = {
  time_zone_invalid: SOCIAL_MESSAGES.timeZoneInvalid,
  url_not_platform: SOCIAL_MESSAGES.urlNotPlatform('twitter'),
  already_shared: SOCIAL_MESSAGES.alreadyShared('twitter'),
  post_already_claimed: SOCIAL_MESSAGES.postAlreadyClaimed,
  daily_cap_reached: SOCIAL_MESSAGES.dailyCapReached,
};

/** A refused share; messages are the contract's (SOCIAL_MESSAGES). */
export class SocialException extends DomainException {
  static override readonly domain = 'social';
  static readonly kinds = KINDS;

  constructor(
    readonly code: SocialErrorCode,
    message: string = DEFAULT_MESSAGES[code],
    details?: Record<string, string>,
  ) {
    super(KINDS[code], message, undefined, details);
  }

  static alreadyShared(platform: SharePlatform, availableAgainAt: Date): SocialException {
    return new SocialException('already_shared', SOCIAL_MESSAGES.alreadyShared(platform), {
      platform,
      availableAgainAt: availableAgainAt.toISOString(),
    });
  }

  static notPlatform(platform: SharePlatform): SocialException {
    return new SocialException('url_not_platform', SOCIAL_MESSAGES.urlNotPlatform(platform));
  }
}
