import {
  type AvailablePlatforms,
  SHARE_IMAGES,
  SHARE_PLATFORM_NAMES,
  type SharePlatform,
  SOCIAL_MESSAGES,
  formatSsl,
} from '@scn/proto';
import { useEffect, useReducer, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { PUBLIC_URL } from '../../../config/env';
import { ApiError } from '../../../lib/api-client';
import { recordShare } from '../api/record-share';
import {
  browserTimeZone,
  INITIAL_FLOW,
  type ShareEvent,
  type ShareFlow,
  shareReducer,
  shareText,
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

const HINTS = [
  'Check that the URL is the link to your post',
  'Make sure the post is public',
  'Wait a few minutes and try again',
  'Try another browser or device',
];

/**
 * The Earn SSL Tokens modal (spec 01 §2, §4, §8; spec 02 §2): the share flow of share-flow.ts,
 * the 5 promotional images, the platform's post, the URL and the server's answer: the pending
 * reward (computed by the server from its clock in the browser's zone) or an error with its
 * pseudo code and hints.
 */
export function ShareDialog({ open, onClose, userUuid, available, onRecorded }: ShareDialogProps) {
  const [flow, dispatch] = useReducer(shareReducer, INITIAL_FLOW);
  useEffect(() => {
    if (!open) dispatch({ type: 'reset' });
  }, [open]);

  useRecordShare(flow, dispatch, userUuid, onRecorded);

  const platform = flow.platform;

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Earn SSL Tokens"
      description="Share our posts and earn 0.1-1 SSL daily. Prime time shares earn 1 SSL."
      size="lg"
      data-testid="share-dialog"
    >
      <div className="share-dialog" data-step={flow.step} data-testid="share-step">
        {flow.step === 'initial' && (
          <div className="share-dialog__platforms">
            <p>Choose where to share. Each platform can be used once every 7 days.</p>
            {(['twitter', 'instagram'] as const).map((p) => (
              <Button
                key={p}
                variant="secondary"
                disabled={!available?.[p]}
                data-testid={`share-choose-${p}`}
                onClick={() => available && dispatch({ type: 'choose', platform: p, available })}
              >
                {SHARE_PLATFORM_NAMES[p]}
                {available && !available[p] ? ' (shared this week)' : ''}
              </Button>
            ))}
            <p className="share-dialog__note">
              Prime time (your local time): weekdays 12:00-13:30 and 20:00-21:30, weekends
              10:00-16:00 and 19:00-22:00. The reward is pending for 24 hours; the post must stay
              up.
            </p>
          </div>
        )}

        {(flow.step === 'sharing' ||
          flow.step === 'twitter_sharing' ||
          flow.step === 'instagram_sharing') &&
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
            // spec 01 §5's messages, not the browser's own validation bubble.
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              dispatch({ type: 'submit' });
            }}
          >
            <label htmlFor="share-url">
              Paste the URL of your {SHARE_PLATFORM_NAMES[platform]} post
            </label>
            <input
              id="share-url"
              className="input"
              type="url"
              inputMode="url"
              value={flow.url}
              placeholder={
                platform === 'twitter'
                  ? 'https://x.com/you/status/...'
                  : 'https://www.instagram.com/p/...'
              }
              onChange={(event) => dispatch({ type: 'url', url: event.target.value })}
              data-testid="share-url"
            />
            {flow.urlError && (
              <Banner tone="error" data-testid="share-url-error">
                {flow.urlError}
              </Banner>
            )}
            <Button type="submit" variant="primary" data-testid="share-verify">
              Verify Post
            </Button>
          </form>
        )}

        {flow.step === 'validating' && (
          <p className="share-dialog__busy" role="status">
            Validating your post...
          </p>
        )}

        {flow.step === 'pending_verification' && flow.reward && (
          <div className="share-dialog__done" data-testid="share-pending">
            <Banner tone="success">
              {flow.reward.isPrimeTime ? 'Prime time share!' : 'Share recorded!'} Your reward of{' '}
              <strong data-testid="share-pending-amount">
                {formatSsl(flow.reward.amountMicro)} SSL
              </strong>{' '}
              is pending verification for 24 hours.
            </Banner>
            <p>Keep the post up: if it is removed, the reward is forfeited.</p>
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
                Choose a different platform
              </Button>
            )}
            <Button
              variant="secondary"
              onClick={
                flow.step === 'pending_verification' ? onClose : () => dispatch({ type: 'reset' })
              }
            >
              {flow.step === 'pending_verification' ? 'Close' : 'Cancel'}
            </Button>
          </div>
        )}
      </div>
    </Dialog>
  );
}

/** spec 01 §8: the 'Feature Unavailable' modal that replaces the share modal in some regions. */
export function RegionBlockedDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Feature Unavailable"
      size="sm"
      data-testid="share-region-blocked"
    >
      <p>{SOCIAL_MESSAGES.regionBlocked}</p>
      <div className="dialog__actions">
        <Button variant="primary" onClick={onClose}>
          Close
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

/** sharing, twitter_sharing, instagram_sharing: an image of the 5, the text, the platform. */
function ComposeStep({ platform, posting, onShared, onPosted }: ComposeStepProps) {
  const [image, setImage] = useState(0);
  const picture = SHARE_IMAGES[image]!;
  const pictureUrl = `/share/${picture.file}`;
  const count = SHARE_IMAGES.length;
  return (
    <div className="share-dialog__compose">
      <figure className="share-dialog__figure">
        <img
          src={pictureUrl}
          alt={picture.alt}
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
            Previous
          </Button>
          <span>
            Image {image + 1} of {count}
          </span>
          <Button variant="ghost" size="sm" onClick={() => setImage((i) => (i + 1) % count)}>
            Next
          </Button>
        </figcaption>
      </figure>
      <p className="share-dialog__text" data-testid="share-text">
        {shareText(platform, PUBLIC_URL)}
      </p>
      {posting ? (
        <Button variant="primary" data-testid="share-posted" onClick={onPosted}>
          I&apos;ve Posted
        </Button>
      ) : (
        <Button
          variant="primary"
          data-testid="share-open"
          onClick={() => {
            if (platform === 'twitter') {
              window.open(twitterIntentUrl(PUBLIC_URL), '_blank', 'noopener,noreferrer');
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
          {platform === 'twitter' ? 'Share on X' : 'Download image for Instagram'}
        </Button>
      )}
    </div>
  );
}

/** error: the message, its pseudo code and the hints (spec 01 §8). */
function ErrorStep({
  error,
  onRetry,
}: {
  error: { message: string; code: string };
  onRetry: () => void;
}) {
  return (
    <div className="share-dialog__error" data-testid="share-error">
      <Banner tone="error" data-testid="share-error-message">
        {error.message}
      </Banner>
      <p className="share-dialog__code">
        Error code: <code data-testid="share-error-code">{error.code}</code>
      </p>
      <ul className="share-dialog__hints">
        {HINTS.map((hint) => (
          <li key={hint}>{hint}</li>
        ))}
      </ul>
      <Button variant="primary" data-testid="share-retry" onClick={onRetry}>
        Try Again
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
