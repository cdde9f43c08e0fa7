import type { RealtimeGateway } from '../realtime/realtime.gateway';
import { SubscriptionsNotifier } from './subscriptions.notifier';

function notifierWithEvents() {
  const events: string[] = [];
  const realtime = {
    serverListUpdated: (reason: string) => events.push(reason),
  } as unknown as RealtimeGateway;
  return { notifier: new SubscriptionsNotifier(realtime), events };
}

describe('SubscriptionsNotifier', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('should send one event at once and one more after 250 ms when changes come in a burst', () => {
    const { notifier, events } = notifierWithEvents();
    notifier.changed();
    notifier.changed();
    notifier.changed();
    expect(events).toEqual(['subscription']);
    jest.advanceTimersByTime(249);
    expect(events).toEqual(['subscription']);
    jest.advanceTimersByTime(1);
    expect(events).toEqual(['subscription', 'subscription']);
    // Nothing changed since: the throttle ends without another event.
    jest.advanceTimersByTime(1000);
    expect(events).toHaveLength(2);
  });

  it('should send a change at once when the last one is more than 250 ms old', () => {
    const { notifier, events } = notifierWithEvents();
    notifier.changed();
    jest.advanceTimersByTime(300);
    notifier.changed();
    expect(events).toEqual(['subscription', 'subscription']);
  });

  it('should send server drop events without throttling', () => {
    const { notifier, events } = notifierWithEvents();
    notifier.changed();
    notifier.serversDropped();
    notifier.serversDropped();
    expect(events).toEqual(['subscription', 'withdrawn', 'withdrawn']);
  });
});
