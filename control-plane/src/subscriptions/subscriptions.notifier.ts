import { Injectable } from '@nestjs/common';
import { RealtimeGateway } from '../realtime/realtime.gateway';

const THROTTLE_MS = 250;

/**
 * The realtime events that follow a commit (docs/product/calls.md#dashboard-calls: the dashboard reloads on
 * server-list-updated). One per replica, shared by every subscription service, so that its
 * throttle sees all of their changes.
 */
@Injectable()
export class SubscriptionsNotifier {
  private timer: NodeJS.Timeout | null = null;
  private pending = false;

  constructor(private readonly realtime: RealtimeGateway) {}

  /**
   * A subscription changed. The event only makes browsers refetch, so a burst of purchases on
   * this replica sends one event at once and at most one more per 250 ms, instead of a database
   * notification per purchase.
   */
  changed(): void {
    if (this.timer) {
      this.pending = true;
      return;
    }
    this.realtime.serverListUpdated('subscription');
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.pending) {
        this.pending = false;
        this.changed();
      }
    }, THROTTLE_MS);
    this.timer.unref();
  }

  /** Servers were dropped; the client dashboard re-reads and shows them. */
  serversDropped(): void {
    this.realtime.serverListUpdated('withdrawn');
  }
}
