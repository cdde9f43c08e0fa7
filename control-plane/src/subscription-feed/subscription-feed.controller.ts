import { Controller, Get, Headers, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { SUBSCRIPTION_URL_UPDATE_HOURS } from '@scn/proto';
import type { Request, Response } from 'express';
import { clientIp } from '../common/client-ip';
import { asLocale, localeFromAcceptLanguage } from '../i18n/catalogues';
import { chooseFeedFormat, fakeIpOption } from './feed-formats/client-format';
import { feedContentDisposition } from './feed-formats/render-feed';
import { SubscriptionFeedService } from './subscription-feed.service';

/**
 * `GET /sub/<secret>`: the subscription URL that v2rayN, v2rayNG, Hiddify, Streisand and NekoBox
 * import and refresh. No session: the unguessable secret is the key (the request logs mask it).
 */
@ApiTags('subscriptions')
@Controller()
export class SubscriptionFeedController {
  constructor(private readonly feeds: SubscriptionFeedService) {}

  @Get('sub/:secret')
  @ApiOperation({
    summary:
      'The subscription in the format of the app asking (User-Agent, whose app version decides what the format contains) or of ?format=base64|singbox|clash|xray|v2ray|html: base64 VLESS links by default, sing-box JSON, mihomo YAML, Xray or v2ray JSON, or the page for a browser in its language (?lang=en|fa|ru|zh, else Accept-Language); ?fakeip=1 turns on FakeIP DNS in sing-box and mihomo; placeholder entries while it is paused, unpaid or expired (404 when unknown, 400 for an unknown format or fakeip value)',
  })
  async feed(
    @Param('secret') secret: string,
    @Query('format') formatQuery: unknown,
    @Query('lang') langQuery: unknown,
    @Query('fakeip') fakeIpQuery: unknown,
    @Headers('user-agent') userAgent: string | undefined,
    @Headers('accept') accept: string | undefined,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    // The answer depends on the app asking: no shared cache may hand one app's format to another.
    // The page's language too (Accept-Language); and the servers, on the requester's network
    // (no-store above keeps shared caches out of that).
    response.setHeader('Vary', 'User-Agent, Accept, Accept-Language');
    // Every answer, a 404 too, tells the app where the portal and its support are: an app whose
    // URL was rotated or deleted can still send its user somewhere useful.
    const pages = this.feeds.pages;
    response.setHeader('support-url', pages.supportUrl);
    response.setHeader('profile-web-page-url', pages.dashboardUrl);
    const choice = chooseFeedFormat(formatQuery, userAgent, accept);
    if (!choice.ok) {
      response.status(400).type('text/plain').send(choice.problem);
      return;
    }
    const fakeIp = fakeIpOption(fakeIpQuery);
    if (!fakeIp.ok) {
      response.status(400).type('text/plain').send(fakeIp.problem);
      return;
    }
    const feed = await this.feeds.feed(secret, clientIp(request));
    if (!feed) {
      response.status(404).type('text/plain').send('Not found');
      return;
    }
    if (choice.format === 'html') {
      // A person in a browser: the page, shown (not downloaded); no app headers.
      // The visitor's language: ?lang= (a link that names it), else the browser's.
      const locale = asLocale(langQuery) ?? localeFromAcceptLanguage(acceptLanguage);
      response.status(200).type('text/html; charset=utf-8').send(this.feeds.page(feed, locale));
      return;
    }
    const rendered = this.feeds.render(feed, choice.format, {
      client: choice.client,
      fakeIp: fakeIp.value,
    });
    response.setHeader('Content-Type', rendered.contentType);
    response.setHeader(
      'Content-Disposition',
      feedContentDisposition(feed.title, rendered.extension),
    );
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
    response.status(200).send(rendered.body);
  }
}
