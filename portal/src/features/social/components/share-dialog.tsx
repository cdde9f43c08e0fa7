import { formatMicroSsl } from '../../../lib/money';
import {
  type AvailablePlatforms,
  SHARE_DAILY_CAP_MICRO,
  SHARE_IMAGES,
  SHARE_PLATFORMS,
  SHARE_PRIME_TIME,
  SHARE_REWARD,
  type SharePlatform,
  SOCIAL_MESSAGES,
  sslToMicro,
} from '@scn/proto';
import { useEffect, useReducer, useState } from 'react';
import { Trans } from 'react-i18next';
import { Banner } from '../../../components/ui/banner';
import { Button, buttonClass } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { PUBLIC_URL } from '../../../config/env';
import { ApiError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { INTL_TAGS, type Locale } from '../../../lib/i18n/locale';
import { recordShare } from '../api/record-share';
import {
  browserTimeZone,
  INITIAL_FLOW,
  type ShareEvent,
  type ShareFlow,
  shareReducer,
  telegramShareUrl,
  twitterIntentUrl,
} from '../share-flow';
import '../social.css';

export interface ShareDialogProps {
  open: boolean;
  onClose: () => void;
  userUuid: string;
  available: AvailablePlatforms | null;
  /** A share was recorded: the owner reloads the pending reward and the platforms. */
  onRecorded: () => void;
}

const HINTS = ['url', 'public', 'wait', 'browser'] as const;
const IMAGE_KEYS = ['1', '2', '3', '4', '5'] as const;
const PLACEHOLDERS: Record<SharePlatform, string> = {
  twitter: 'https://x.com/you/status/...',
  instagram: 'https://www.instagram.com/p/...',
  telegram: 'https://t.me/channel/123',
};

/**
 * The Earn SSL Tokens modal (docs/product/screens.md#the-shell-and-the-market-screens, docs/product/states.md#market-and-account-states, docs/product/messages.md#market-and-account-messages; docs/product/screens.md#dashboards-and-information-pages): the share flow of share-flow.ts,
 * the 5 promotional images, the platform's post, the URL and the server's answer: the pending
 * reward (computed by the server from its clock in the browser's zone) or an error with its
 * pseudo code and hints. Before any share it warns that posting about a circumvention service
 * can be risky, and states the payout rules exactly as the server pays them.
 */
export function ShareDialog({ open, onClose, userUuid, available, onRecorded }: ShareDialogProps) {
  const { t, locale } = useT('earn');
  const [flow, dispatch] = useReducer(shareReducer, INITIAL_FLOW);
  useEffect(() => {
    if (!open) dispatch({ type: 'reset' });
  }, [open]);

  useRecordShare(flow, dispatch, userUuid, onRecorded);

  const platform = flow.platform;
  const ssl = (value: number) => formatMicroSsl(sslToMicro(value), locale);

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('social.dialog.title')}
      description={t('social.dialog.description', {
        normal: ssl(SHARE_REWARD.normalSsl),
        prime: ssl(SHARE_REWARD.primeTimeSsl),
      })}
      size="lg"
      data-testid="share-dialog"
    >
      <div className="share-dialog" data-step={flow.step} data-testid="share-step">
        {flow.step === 'initial' && (
          <div className="share-dialog__platforms">
            <RiskWarning />
            <p>{t('social.dialog.choose', { days: SHARE_REWARD.cooldownDays })}</p>
            {SHARE_PLATFORMS.map((p) => (
              <Button
                key={p}
                variant="secondary"
                disabled={!available?.[p]}
                data-testid={`share-choose-${p}`}
                onClick={() => available && dispatch({ type: 'choose', platform: p, available })}
              >
                {t(`social.platform.${p}`)}
                {available && !available[p] ? ` ${t('social.dialog.sharedThisWeek')}` : ''}
              </Button>
            ))}
            <ShareRules />
          </div>
        )}

        {(flow.step === 'sharing' ||
          flow.step === 'twitter_sharing' ||
          flow.step === 'instagram_sharing' ||
          flow.step === 'telegram_sharing') &&
          platform && (
            <ComposeStep
              platform={platform}
              posting={flow.step !== 'sharing'}
              onShared={() => dispatch({ type: 'share' })}
              onPosted={() => dispatch({ type: 'posted' })}
            />
          )}

        {flow.step === 'url_verification' && platform && (
          <form
            className="share-dialog__verify"
            // docs/product/input-rules.md#market-and-account-input's messages, not the browser's own validation bubble.
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              dispatch({ type: 'submit' });
            }}
          >
            <label htmlFor="share-url">
              {t('social.verify.label', { platform: t(`social.platform.${platform}`) })}
            </label>
            <input
              id="share-url"
              className="input"
              type="url"
              dir="ltr"
              inputMode="url"
              value={flow.url}
              placeholder={PLACEHOLDERS[platform]}
              onChange={(event) => dispatch({ type: 'url', url: event.target.value })}
              data-testid="share-url"
            />
            {flow.urlError && (
              <Banner tone="error" data-testid="share-url-error">
                {t(`social.verify.${flow.urlError}`)}
              </Banner>
            )}
            <Button type="submit" variant="primary" data-testid="share-verify">
              {t('social.verify.submit')}
            </Button>
          </form>
        )}

        {flow.step === 'validating' && (
          <p className="share-dialog__busy" role="status">
            {t('social.verify.validating')}
          </p>
        )}

        {flow.step === 'pending_verification' && flow.reward && (
          <div className="share-dialog__done" data-testid="share-pending">
            <Banner tone="success">
              <Trans
                ns="earn"
                i18nKey={flow.reward.isPrimeTime ? 'social.pending.prime' : 'social.pending.normal'}
                values={{
                  amount: formatMicroSsl(flow.reward.amountMicro, locale, { decimals: 'cents' }),
                  hours: SHARE_REWARD.pendingHours,
                }}
                components={{ amount: <strong data-testid="share-pending-amount" /> }}
              />
            </Banner>
            <p>{t('social.pending.keepUp')}</p>
          </div>
        )}

        {flow.step === 'error' && flow.error && (
          <ErrorStep error={flow.error} onRetry={() => dispatch({ type: 'retry' })} />
        )}

        {flow.step !== 'initial' && flow.step !== 'validating' && (
          <div className="dialog__actions">
            {flow.step !== 'pending_verification' && (
              <Button
                variant="ghost"
                onClick={() => dispatch({ type: 'reset' })}
                data-testid="share-different"
              >
                {t('social.dialog.different')}
              </Button>
            )}
            <Button
              variant="secondary"
              onClick={
                flow.step === 'pending_verification' ? onClose : () => dispatch({ type: 'reset' })
              }
            >
              {flow.step === 'pending_verification' ? t('common.close') : t('common.cancel')}
            </Button>
          </div>
        )}
      </div>
    </Dialog>
  );
}

/** The risk of posting publicly about a circumvention service, said before any share. */
function RiskWarning() {
  const { t } = useT('earn');
  return (
    <Banner tone="warning" data-testid="share-risk-warning">
      <strong>{t('social.risk.title')}</strong> {t('social.risk.body')}
    </Banner>
  );
}

/** "12:00–13:30" in the reader's digits, from minutes of the local day. */
function windowText([start, end]: readonly [number, number], locale: Locale): string {
  const time = (minutes: number) =>
    formatDate(Date.UTC(2000, 0, 1, Math.floor(minutes / 60), minutes % 60), locale, {
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone: 'UTC',
    });
  return `${time(start)}–${time(end)}`;
}

/** The browser's time zone, named in the reader's language ("India Standard Time"). */
function zoneName(locale: Locale): string {
  const zone = browserTimeZone() ?? 'UTC';
  try {
    const part = new Intl.DateTimeFormat(INTL_TAGS[locale], {
      timeZone: zone,
      timeZoneName: 'long',
    })
      .formatToParts(new Date())
      .find((candidate) => candidate.type === 'timeZoneName');
    return part?.value ?? zone;
  } catch {
    return zone;
  }
}

/**
 * The payout rules as control-plane social/share-rules.ts pays them, from the same constants:
 * the prime-time windows (weekdays, weekends) in the browser's zone, the two rewards, the daily
 * cap that can cut a prime-time share to what is left, the 7 days per platform, the 24 hours.
 */
function ShareRules() {
  const { t, locale } = useT('earn');
  const ssl = (value: number) => formatMicroSsl(sslToMicro(value), locale);
  const cut = SHARE_DAILY_CAP_MICRO - sslToMicro(SHARE_REWARD.normalSsl);
  const [weekday1, weekday2] = SHARE_PRIME_TIME.weekday.map((w) => windowText(w, locale));
  const [weekend1, weekend2] = SHARE_PRIME_TIME.weekend.map((w) => windowText(w, locale));
  return (
    <div className="share-dialog__note" data-testid="share-rules">
      <p>
        <strong>{t('social.rules.title')}</strong>
      </p>
      <ul>
        <li data-testid="share-rules-prime">
          {t('social.rules.primeTime', {
            zone: zoneName(locale),
            weekday1: weekday1!,
            weekday2: weekday2!,
            weekend1: weekend1!,
            weekend2: weekend2!,
          })}
        </li>
        <li>
          {t('social.rules.rewards', {
            prime: ssl(SHARE_REWARD.primeTimeSsl),
            normal: ssl(SHARE_REWARD.normalSsl),
          })}
        </li>
        <li data-testid="share-rules-cap">
          {t('social.rules.dailyCap', {
            cap: formatMicroSsl(SHARE_DAILY_CAP_MICRO, locale),
            normal: ssl(SHARE_REWARD.normalSsl),
            cut: formatMicroSsl(cut, locale),
          })}
        </li>
        <li>{t('social.rules.cooldown', { days: SHARE_REWARD.cooldownDays })}</li>
        <li>{t('social.rules.pending', { hours: SHARE_REWARD.pendingHours })}</li>
      </ul>
    </div>
  );
}

/** docs/product/messages.md#market-and-account-messages: the 'Feature Unavailable' modal that replaces the share modal in some regions. */
export function RegionBlockedDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useT('earn');
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('social.blocked.title')}
      size="sm"
      data-testid="share-region-blocked"
    >
      <p>{t('social.blocked.body')}</p>
      <div className="dialog__actions">
        <Button variant="primary" onClick={onClose}>
          {t('common.close')}
        </Button>
      </div>
    </Dialog>
  );
}

interface ComposeStepProps {
  platform: SharePlatform;
  /** After the share button: waiting for 'I've Posted'. */
  posting: boolean;
  onShared: () => void;
  onPosted: () => void;
}

/** sharing, <platform>_sharing: an image of the 5, the text, the platform. */
function ComposeStep({ platform, posting, onShared, onPosted }: ComposeStepProps) {
  const { t, locale } = useT('earn');
  const [image, setImage] = useState(0);
  const picture = SHARE_IMAGES[image]!;
  const pictureUrl = `/share/${picture.file}`;
  const count = SHARE_IMAGES.length;
  const text = t(`social.text.${platform}`, {
    url: PUBLIC_URL,
    amount: formatMicroSsl(sslToMicro(SHARE_REWARD.normalSsl), locale),
  });
  return (
    <div className="share-dialog__compose">
      <RiskWarning />
      <figure className="share-dialog__figure">
        <img
          src={pictureUrl}
          alt={t(`social.image.${IMAGE_KEYS[image]!}`)}
          width={320}
          height={320}
          data-testid="share-image"
        />
        <figcaption>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setImage((i) => (i + count - 1) % count)}
          >
            {t('social.image.previous')}
          </Button>
          <span>{t('social.image.position', { index: image + 1, count })}</span>
          <Button variant="ghost" size="sm" onClick={() => setImage((i) => (i + 1) % count)}>
            {t('social.image.next')}
          </Button>
        </figcaption>
      </figure>
      <p className="share-dialog__text" data-testid="share-text">
        {text}
      </p>
      {posting ? (
        <Button variant="primary" data-testid="share-posted" onClick={onPosted}>
          {t('social.compose.posted')}
        </Button>
      ) : platform === 'telegram' ? (
        <a
          className={buttonClass({ variant: 'primary' })}
          href={telegramShareUrl(PUBLIC_URL, text)}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="share-open"
          onClick={onShared}
        >
          {t('social.compose.telegram')}
        </a>
      ) : (
        <Button
          variant="primary"
          data-testid="share-open"
          onClick={() => {
            if (platform === 'twitter') {
              window.open(twitterIntentUrl(text), '_blank', 'noopener,noreferrer');
            } else {
              // Instagram has no web share: download the image and post it in the app.
              const link = document.createElement('a');
              link.href = pictureUrl;
              link.download = picture.file;
              link.click();
            }
            onShared();
          }}
        >
          {platform === 'twitter' ? t('social.compose.twitter') : t('social.compose.instagram')}
        </Button>
      )}
    </div>
  );
}

/** error: the message, its pseudo code and the hints (docs/product/messages.md#market-and-account-messages). */
function ErrorStep({
  error,
  onRetry,
}: {
  error: { message: string; code: string };
  onRetry: () => void;
}) {
  const { t } = useT('earn');
  return (
    <div className="share-dialog__error" data-testid="share-error">
      <Banner tone="error" data-testid="share-error-message">
        {error.message}
      </Banner>
      <p className="share-dialog__code">
        {t('social.error.code')} <code data-testid="share-error-code">{error.code}</code>
      </p>
      <ul className="share-dialog__hints">
        {HINTS.map((hint) => (
          <li key={hint}>{t(`social.error.hint.${hint}`)}</li>
        ))}
      </ul>
      <Button variant="primary" data-testid="share-retry" onClick={onRetry}>
        {t('common.tryAgain')}
      </Button>
    </div>
  );
}

/** validating: sends the share once; the answer moves the flow on. */
function useRecordShare(
  flow: ShareFlow,
  dispatch: (event: ShareEvent) => void,
  userUuid: string,
  onRecorded: () => void,
): void {
  useEffect(() => {
    if (flow.step !== 'validating' || !flow.platform) return;
    let live = true;
    recordShare({
      userId: userUuid,
      platform: flow.platform,
      postUrl: flow.url.trim(),
      timeZone: browserTimeZone() ?? 'UTC',
      timestamp: new Date().toISOString(),
      clientTime: new Date().toString().slice(0, 64),
    })
      .then((answer) => {
        if (!live) return;
        dispatch({ type: 'succeeded', reward: answer.pendingReward });
        onRecorded();
      })
      .catch((error: unknown) => {
        if (!live) return;
        const message =
          error instanceof ApiError
            ? error.message
            : error instanceof Error
              ? `Error: ${error.message}`
              : SOCIAL_MESSAGES.errorLater;
        dispatch({ type: 'failed', message, at: Date.now() });
      });
    return () => {
      live = false;
    };
  }, [flow.step, flow.platform, flow.url, userUuid, onRecorded, dispatch]);
}
