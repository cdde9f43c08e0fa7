import { z } from 'zod';
import { requestBody, uuidSchema } from './common.contract';

/**
 * docs/product/screens.md#the-shell-and-the-market-screens, docs/product/constants.md#market-prices-and-limits and docs/product/calls.md#dashboard-calls: share-and-earn. A signed-in user shares a
 * promotional post on X (Twitter), Instagram or Telegram (a public channel's post) and states its
 * URL; the server checks the URL,
 * the 7-day limit per platform and the daily cap, computes the reward from its own clock in the
 * user's stated IANA time zone (prime time 1 SSL, else 0.1 SSL) and keeps it pending 24 hours;
 * a job then pays it from the reward pool (or forfeits it when the post is gone).
 */
export const SOCIAL_ROUTES = {
  checkShares: (uuid: string) => `/api/social/check-shares/${encodeURIComponent(uuid)}`,
  recordShare: '/api/social/record-share',
  /** docs/product/calls.md#dashboard-calls: the client dashboard's call; the same rule and path as record-share. */
  addSocialReward: '/wallet/add-social-reward',
} as const;

export const SHARE_PLATFORMS = ['twitter', 'instagram', 'telegram'] as const;
export type SharePlatform = (typeof SHARE_PLATFORMS)[number];

/** How each platform is named to the user ({host} of docs/product/constants.md#market-prices-and-limits is X). */
export const SHARE_PLATFORM_NAMES: Record<SharePlatform, string> = {
  twitter: 'X (Twitter)',
  instagram: 'Instagram',
  telegram: 'Telegram',
};

/**
 * The daily cap: an account earns at most this much from shares in any 24 hours
 * (the modal's header says "0.1-1 SSL daily"). A share that would pass it is paid what is left;
 * with nothing left it is refused and not recorded.
 */
export const SHARE_DAILY_CAP_MICRO = 1_000_000n;

export const SOCIAL_MESSAGES = {
  /** docs/product/input-rules.md#market-and-account-input. */
  urlRequired: 'Please enter the URL of your social media post',
  urlNotHttp: 'Please enter a valid URL starting with http:// or https://',
  /** docs/product/input-rules.md#market-and-account-input (the interface also says the limit is 7 days). */
  alreadyShared: (platform: SharePlatform) =>
    `You've already shared to ${SHARE_PLATFORM_NAMES[platform]} today. Try again tomorrow!`,
  /** docs/product/messages.md#market-and-account-messages. */
  regionBlocked: 'Sorry, the social sharing feature is not available in your region.',
  validateFailed: 'Failed to validate share. Please try again.',
  errorLater: 'An error occurred. Please try again later.',
  /** Ours. */
  platformInvalid: 'platform must be twitter, instagram or telegram',
  timeZoneInvalid: 'timeZone must be an IANA time zone such as Europe/Berlin',
  urlNotPlatform: (platform: SharePlatform) =>
    platform === 'twitter'
      ? 'The URL must be an https link to a post on x.com or twitter.com (https://x.com/<user>/status/<id>)'
      : platform === 'instagram'
        ? 'The URL must be an https link to a post on instagram.com (https://www.instagram.com/p/<id>/)'
        : "The URL must be an https link to a public channel's post on t.me (https://t.me/<channel>/<id>)",
  postAlreadyClaimed: 'This post has already been used to claim a reward',
  dailyCapReached:
    'You have reached the daily limit of share rewards (1 SSL in 24 hours). Try again tomorrow!',
  recorded: (isPrimeTime: boolean) =>
    isPrimeTime
      ? 'Share recorded at prime time. Your reward is pending verification for 24 hours.'
      : 'Share recorded. Your reward is pending verification for 24 hours.',
} as const;

/** An IANA zone name as text; the server checks it against Intl. */
const timeZoneText = z
  .string({ error: SOCIAL_MESSAGES.timeZoneInvalid })
  .min(1, SOCIAL_MESSAGES.timeZoneInvalid)
  .max(64, SOCIAL_MESSAGES.timeZoneInvalid)
  .regex(/^[A-Za-z][A-Za-z0-9_+\-/]*$/, SOCIAL_MESSAGES.timeZoneInvalid);

const platformSchema = z.enum(SHARE_PLATFORMS, { error: SOCIAL_MESSAGES.platformInvalid });

const postUrlSchema = z
  .string({ error: SOCIAL_MESSAGES.urlRequired })
  .trim()
  .min(1, SOCIAL_MESSAGES.urlRequired)
  .max(2048, 'postUrl must be at most 2048 characters')
  .regex(/^https?:\/\//i, SOCIAL_MESSAGES.urlNotHttp);

/** The old client's informational fields: kept for its shape, never used for the reward. */
const clientText = z.string().max(64, 'must be at most 64 characters');

/**
 * docs/product/calls.md#market-and-account-calls record-share: userId, platform, timestamp, postUrl, clientTime, plus the IANA
 * `timeZone` the reward is computed in (the browser's `Intl` zone). `timestamp` and `clientTime`
 * are the client's clock: accepted, never trusted (the server's clock decides).
 */
export const recordShareSchema = requestBody({
  userId: uuidSchema,
  platform: platformSchema,
  postUrl: postUrlSchema,
  timeZone: timeZoneText,
  timestamp: z.union([clientText, z.number()]).optional(),
  clientTime: clientText.optional(),
});
export type RecordShareRequest = z.infer<typeof recordShareSchema>;

/**
 * docs/product/calls.md#dashboard-calls add-social-reward: body userId, platform, timestamp (the old client also sent
 * `amount: 1`; this server never takes an amount, so a body naming one is refused). It records a
 * share like record-share, so it needs the post's URL and the time zone too.
 */
export const addSocialRewardSchema = recordShareSchema;
export type AddSocialRewardRequest = RecordShareRequest;

export const availablePlatformsSchema = z.object({
  twitter: z.boolean(),
  instagram: z.boolean(),
  telegram: z.boolean(),
});
export type AvailablePlatforms = z.infer<typeof availablePlatformsSchema>;

const microString = z.string().regex(/^\d+$/);

export const shareSummarySchema = z.object({
  id: z.string(),
  platform: z.enum(SHARE_PLATFORMS),
  postUrl: z.string(),
  rewardMicro: microString,
  isPrimeTime: z.boolean(),
  status: z.enum(['pending', 'paid', 'forfeited']),
  sharedAt: z.string(),
  /** When the reward is paid if the post is still up. */
  paysAt: z.string(),
  /** When the platform can be shared to again (7 days after the share). */
  availableAgainAt: z.string(),
});
export type ShareSummary = z.infer<typeof shareSummarySchema>;

/** GET check-shares/{uuid}: which platforms can be shared to now, and the recent shares. */
export const checkSharesResponseSchema = z.object({
  success: z.literal(true),
  availablePlatforms: availablePlatformsSchema,
  /** Micro-SSL pending (shares not yet paid or forfeited). */
  pendingRewardMicro: microString,
  shares: z.array(shareSummarySchema),
});
export type CheckSharesResponse = z.infer<typeof checkSharesResponseSchema>;

export const recordShareResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** docs/product/records.md#market-and-wallet-records: amount in SSL (a number, as the old client read it), and the exact micro. */
  pendingReward: z.object({
    amount: z.number(),
    amountMicro: microString,
    isPrimeTime: z.boolean(),
    paysAt: z.string(),
  }),
  share: shareSummarySchema,
  availablePlatforms: availablePlatformsSchema,
});
export type RecordShareResponse = z.infer<typeof recordShareResponseSchema>;

/**
 * docs/product/messages.md#market-and-account-messages: the browser time zones where sharing is unavailable (about 12), decided in the
 * browser from `Intl.DateTimeFormat().resolvedOptions().timeZone`.
 */
export const SHARE_BLOCKED_TIME_ZONES: readonly string[] = [
  'Asia/Tehran',
  'Asia/Shanghai',
  'Asia/Urumqi',
  'Asia/Pyongyang',
  'Europe/Moscow',
  'Europe/Minsk',
  'Asia/Ashgabat',
  'Asia/Tashkent',
  'Asia/Samarkand',
  'Asia/Damascus',
  'Asia/Riyadh',
  'Asia/Yangon',
];

/** Whether the browser's zone is one where the share modal is replaced by 'Feature Unavailable'. */
export function isShareRegionBlocked(timeZone: string | undefined): boolean {
  return timeZone !== undefined && SHARE_BLOCKED_TIME_ZONES.includes(timeZone);
}

/** docs/product/constants.md#market-prices-and-limits: the 5 promotional images, served by the portal under /share/. */
export const SHARE_IMAGES = [
  { file: 'share-1.svg', alt: 'Secure connections for everyone' },
  { file: 'share-2.svg', alt: 'Run a node, earn SSL' },
  { file: 'share-3.svg', alt: 'Censorship-resistant network access' },
  { file: 'share-4.svg', alt: 'Connect with one QR code' },
  { file: 'share-5.svg', alt: 'No-logs network' },
] as const;
