import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Request, Response } from 'express';
import { FEED_ROUTE, FeedAnswer } from './feed-answer';
import { SubscriptionFeedController } from './subscription-feed.controller';
import type { SubscriptionFeedService } from './subscription-feed.service';

/**
 * The feed route is declared twice: the Nest controller (OpenAPI and the fallback) and the fast
 * path in front of Nest's router (FeedAnswer.middleware). These keep the two the same route with
 * the same query options and headers.
 */
const handler = SubscriptionFeedController.prototype.feed;

/** The controller's route: its path and method, as Nest's router registers them. */
function controllerRoute(): { path: string; method: RequestMethod } {
  const base = String(Reflect.getMetadata(PATH_METADATA, SubscriptionFeedController) ?? '/');
  const own = String(Reflect.getMetadata(PATH_METADATA, handler));
  const path = `/${[base, own]
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;
  return { path, method: Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod };
}

/** The names the controller's parameters of one kind document (`@Query('format')`, …). */
function documented(kind: RouteParamtypes): string[] {
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, SubscriptionFeedController, 'feed') as
    Record<string, { data?: unknown }> | undefined;
  return Object.entries(args ?? {})
    .filter(([key]) => key.split(':')[0] === String(kind))
    .map(([, value]) => String(value.data))
    .sort();
}

/** An object that records the keys read from it. */
function recording(values: Record<string, string>, read: Set<string>): Record<string, string> {
  return new Proxy(values, {
    get: (target, key) => {
      if (typeof key !== 'string') return undefined;
      read.add(key);
      return target[key];
    },
  });
}

function fakeResponse(): Response {
  const response = {
    setHeader: () => response,
    status: () => response,
    type: () => response,
    send: () => response,
  };
  return response as unknown as Response;
}

/** The feed service as far as the answer uses it, with one feed for every secret. */
const feeds = {
  pages: { supportUrl: 'https://portal.example/support', dashboardUrl: 'https://portal.example' },
  feed: () =>
    Promise.resolve({
      title: 'Feed',
      uploadBytes: 0,
      downloadBytes: 0,
      expiresAt: new Date(),
    }),
  page: () => '<html></html>',
  render: () => ({ body: '', contentType: 'text/plain', extension: 'txt' }),
} as unknown as SubscriptionFeedService;

/** Runs `path` through the fast path: the secret it answers, or null where it passes it on. */
function fastPath(path: string, method = 'GET'): string | null {
  const answer = new FeedAnswer(feeds);
  let secret: string | null = null;
  jest.spyOn(answer, 'answer').mockImplementation((value) => {
    secret = value;
    return Promise.resolve();
  });
  let passed = false;
  answer.middleware()({ method, path } as Request, fakeResponse(), () => {
    passed = true;
  });
  expect(passed).toBe(secret === null);
  return secret;
}

describe('the feed route of the controller and of the fast path', () => {
  it('should be one route: GET /sub/:secret, the metrics label the fast path gives', () => {
    expect(controllerRoute()).toEqual({ path: FEED_ROUTE, method: RequestMethod.GET });
  });

  it('should answer on the fast path the paths the controller route matches, and only those', () => {
    const route = controllerRoute().path;
    const path = (secret: string) => route.replace(':secret', secret);
    expect(fastPath(path('s3cr3t'))).toBe('s3cr3t');
    expect(fastPath(`${path('s3cr3t')}/`)).toBe('s3cr3t');
    expect(fastPath(path('s3cr3t'), 'HEAD')).toBe('s3cr3t');
    expect(fastPath(path('a%20b'))).toBe('a b');
    expect(fastPath(path('s3cr3t'), 'POST')).toBeNull();
    expect(fastPath(`${path('s3cr3t')}/more`)).toBeNull();
    expect(fastPath(path(''))).toBeNull();
    expect(fastPath(route.replace('/:secret', 'x/s3cr3t'))).toBeNull();
  });

  it('should read the query options and headers the controller documents, and no others', async () => {
    const query = new Set<string>();
    const headers = new Set<string>();
    // The page (format=html) reads every option: the format, FakeIP and the page's language (no
    // ?lang=, so Accept-Language too).
    for (const format of ['html', 'base64']) {
      const request = {
        method: 'GET',
        ip: '203.0.113.7',
        query: recording({ format, fakeip: '1' }, query),
        headers: recording({}, headers),
      } as unknown as Request;
      await new FeedAnswer(feeds).answer('s3cr3t', request, fakeResponse());
    }
    expect([...query].sort()).toEqual(documented(RouteParamtypes.QUERY));
    expect([...headers].sort()).toEqual(documented(RouteParamtypes.HEADERS));
  });
});
