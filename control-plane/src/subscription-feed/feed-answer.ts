import { type ArgumentsHost, Injectable } from '@nestjs/common';
import { SUBSCRIPTION_URL_UPDATE_HOURS } from '@scn/proto';
import type { NextFunction, Request, Response } from 'express';
import { ApiExceptionFilter } from '../common/api-exception.filter';
import { clientIp } from '../common/client-ip';
import { asLocale, localeFromAcceptLanguage } from '../i18n/catalogues';
import { chooseFeedFormat, fakeIpOption } from './feed-formats/client-format';
import { feedContentDisposition } from './feed-formats/render-feed';
import { SubscriptionFeedService } from './subscription-feed.service';

/** The route pattern, as the metrics label it (the secret never becomes a label). */
export const FEED_ROUTE = '/sub/:secret';

/** `/sub/<secret>` (a trailing slash allowed, any case), as Nest's router matches the route. */
const FEED_PATH = /^\/sub\/([^/]+?)\/?$/i;

/**
 * The answer of `GET /sub/<secret>` (and HEAD), written on Express's response. Two ways reach
 * it: the fast path (`middleware`), which bootstrap.ts mounts before cookies, bodies and Nest's
 * router so a feed costs none of them (docs/benchmarks.md, bench/feed), and the Nest controller,
 * which documents the route in OpenAPI and answers whatever the fast path passes on.
 */
@Injectable()
export class FeedAnswer {
  private readonly errors = new ApiExceptionFilter();

  constructor(private readonly feeds: SubscriptionFeedService) {}

  /** Express middleware: answers feed requests, passes everything else on. */
  middleware() {
    return (request: Request, response: Response, next: NextFunction): void => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return next();
      const match = FEED_PATH.exec(request.path);
      if (!match) return next();
      let secret: string;
      try {
        secret = decodeURIComponent(match[1]!);
      } catch {
        return next(); // Nest's router answers a malformed escape as it always did
      }
      // The metrics' route label, as if Nest's router had matched it (http-metrics.ts routeOf).
      (request as Request & { route?: { path: string } }).route = { path: FEED_ROUTE };
      this.answer(secret, request, response).catch((error: unknown) => {
        const host = {
          switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
        } as unknown as ArgumentsHost;
        this.errors.catch(error, host);
      });
    };
  }

  async answer(secret: string, request: Request, response: Response): Promise<void> {
    const query = request.query;
    const headers = request.headers;
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
    const choice = chooseFeedFormat(query.format, headers['user-agent'], headers.accept);
    if (!choice.ok) {
      response.status(400).type('text/plain').send(choice.problem);
      return;
    }
    const fakeIp = fakeIpOption(query.fakeip);
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
      const locale = asLocale(query.lang) ?? localeFromAcceptLanguage(headers['accept-language']);
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
    // subscription moved (all the days kept, every server; no quota, so total=0, which apps show
    // as unlimited), and the paid-until time. A client pause stops the paid clock (expire: when
    // the time left would end from now); unpaid and expired: when it stopped, so apps show the
    // profile as ended.
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
