import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { SUBSCRIPTION_URL_UPDATE_HOURS } from '@scn/proto';
import type { Response } from 'express';
import { SubscriptionViewsService } from './subscription-views.service';

/**
 * `GET /sub/<secret>`: the subscription URL that v2rayN, v2rayNG, Hiddify, Streisand and NekoBox
 * import and refresh. No session: the unguessable secret is the key (the request logs mask it).
 */
@ApiTags('subscriptions')
@Controller()
export class SubscriptionFeedController {
  constructor(private readonly views: SubscriptionViewsService) {}

  @Get('sub/:secret')
  @ApiOperation({
    summary:
      'Base64 list of the VLESS links of a subscription; placeholder entries while it is paused, unpaid or expired (404 when unknown)',
  })
  async feed(@Param('secret') secret: string, @Res() response: Response): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    // Every answer, a 404 too, tells the app where the portal and its support are: an app whose
    // URL was rotated or deleted can still send its user somewhere useful.
    const pages = this.views.feedPages;
    response.setHeader('support-url', pages.supportUrl);
    response.setHeader('profile-web-page-url', pages.dashboardUrl);
    const feed = await this.views.feed(secret);
    if (!feed) {
      response.status(404).type('text/plain').send('Not found');
      return;
    }
    response.setHeader('Content-Type', 'text/plain; charset=utf-8');
    response.setHeader('Content-Disposition', 'attachment; filename="scn-subscription.txt"');
    // The de facto headers of subscription apps: refresh interval (hours), title, the bytes the
    // subscription moved (all the days kept, every server: issue 19 §3; no quota, so total=0,
    // which apps show as unlimited), and the paid-until time. A client pause stops the
    // paid clock (expire: when the time left would end from now); unpaid and expired: when it
    // stopped, so apps show the profile as ended.
    response.setHeader('profile-update-interval', String(SUBSCRIPTION_URL_UPDATE_HOURS));
    response.setHeader(
      'profile-title',
      `base64:${Buffer.from(feed.title, 'utf8').toString('base64')}`,
    );
    response.setHeader(
      'subscription-userinfo',
      `upload=${feed.uploadBytes}; download=${feed.downloadBytes}; total=0; expire=${Math.floor(feed.expiresAt.getTime() / 1000)}`,
    );
    response.status(200).send(feed.content);
  }
}
