import { describe, expect, it } from '@jest/globals';
import { SOCIAL_MESSAGES } from '@scn/proto';
import {
  INITIAL_FLOW,
  pseudoErrorCode,
  regionBlocked,
  type ShareEvent,
  type ShareFlow,
  shareReducer,
  telegramShareUrl,
} from './share-flow';

const open = { twitter: true, instagram: true, telegram: true };
const reward = {
  amount: 1,
  amountMicro: '1000000',
  isPrimeTime: true,
  paysAt: '2026-12-03T12:00:00Z',
};

function run(...events: ShareEvent[]): ShareFlow {
  return events.reduce(shareReducer, INITIAL_FLOW);
}

describe('the share flow (spec 01 §4)', () => {
  it('should go initial, sharing, twitter_sharing, url_verification, validating, pending_verification', () => {
    const steps: string[] = [];
    let flow = INITIAL_FLOW;
    const events: ShareEvent[] = [
      { type: 'choose', platform: 'twitter', available: open },
      { type: 'share' },
      { type: 'posted' },
      { type: 'url', url: 'https://x.com/a/status/1' },
      { type: 'submit' },
      { type: 'succeeded', reward },
    ];
    for (const event of events) {
      flow = shareReducer(flow, event);
      steps.push(flow.step);
    }
    expect(steps).toEqual([
      'sharing',
      'twitter_sharing',
      'url_verification',
      'url_verification',
      'validating',
      'pending_verification',
    ]);
    expect(flow.reward).toEqual(reward);
  });

  it('should not choose a platform that is not available', () => {
    expect(
      run({ type: 'choose', platform: 'instagram', available: { ...open, instagram: false } }).step,
    ).toBe('initial');
    expect(
      run({ type: 'choose', platform: 'instagram', available: open }, { type: 'share' }).step,
    ).toBe('instagram_sharing');
    expect(
      run(
        { type: 'choose', platform: 'telegram', available: open },
        { type: 'share' },
        { type: 'posted' },
      ).step,
    ).toBe('url_verification');
  });

  it("should send Telegram's share link the portal's link and the text", () => {
    expect(telegramShareUrl('https://scn.example/', 'Join us & share')).toBe(
      'https://t.me/share/url?url=https%3A%2F%2Fscn.example%2F&text=Join%20us%20%26%20share',
    );
  });

  it('should check the URL in the page (spec 01 §5)', () => {
    const at = run(
      { type: 'choose', platform: 'twitter', available: open },
      { type: 'share' },
      { type: 'posted' },
    );
    expect(shareReducer(at, { type: 'submit' })).toMatchObject({
      step: 'url_verification',
      urlError: 'urlRequired',
    });
    const ftp = shareReducer(at, { type: 'url', url: 'ftp://x.com/a' });
    expect(shareReducer(ftp, { type: 'submit' }).urlError).toBe('urlNotHttp');
  });

  it('should show an error with its pseudo code, and Try Again back to the URL or the start', () => {
    const validating = run(
      { type: 'choose', platform: 'twitter', available: open },
      { type: 'share' },
      { type: 'posted' },
      { type: 'url', url: 'https://x.com/a/status/1' },
      { type: 'submit' },
    );
    const failed = shareReducer(validating, {
      type: 'failed',
      message: 'Nope',
      at: 1_764_000_123_456,
    });
    expect(failed).toMatchObject({ step: 'error', error: { message: 'Nope', code: '123456' } });
    expect(shareReducer(failed, { type: 'retry' })).toMatchObject({
      step: 'url_verification',
      url: 'https://x.com/a/status/1',
    });
    const blank = shareReducer(validating, { type: 'failed', message: '', at: 42 });
    expect(blank.error).toEqual({ message: SOCIAL_MESSAGES.validateFailed, code: '000042' });
    expect(shareReducer({ ...blank, url: '' }, { type: 'retry' }).step).toBe('initial');
    expect(shareReducer(failed, { type: 'reset' })).toEqual(INITIAL_FLOW);
  });

  it('should compute the pseudo code from the last 6 digits', () => {
    expect(pseudoErrorCode(1_764_000_987_654)).toBe('987654');
  });

  it('should block the feature from the browser time zone', () => {
    expect(regionBlocked('Asia/Tehran')).toBe(true);
    expect(regionBlocked('Europe/Berlin')).toBe(false);
    expect(regionBlocked(undefined)).toBe(false);
  });
});
