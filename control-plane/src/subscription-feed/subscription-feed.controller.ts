import { Controller, Get, Headers, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { FeedAnswer } from './feed-answer';

/**
 * `GET /sub/<secret>`: the subscription URL that v2rayN, v2rayNG, Hiddify, Streisand and NekoBox
 * import and refresh. No session: the unguessable secret is the key (the request logs mask it).
 */
@ApiTags('subscriptions')
@Controller()
export class SubscriptionFeedController {
  constructor(private readonly answers: FeedAnswer) {}

  @Get('sub/:secret')
  @ApiOperation({
    summary:
      'The subscription in the format of the app asking (User-Agent, whose app version decides what the format contains) or of ?format=base64|singbox|clash|xray|v2ray|html: base64 VLESS links by default, sing-box JSON, mihomo YAML, Xray or v2ray JSON, or the page for a browser in its language (?lang=en|fa|ru|zh, else Accept-Language); ?fakeip=1 turns on FakeIP DNS in sing-box and mihomo; placeholder entries while it is paused, unpaid or expired (404 when unknown, 400 for an unknown format or fakeip value)',
  })
  feed(
    @Param('secret') secret: string,
    @Query('format') _format: unknown,
    @Query('lang') _lang: unknown,
    @Query('fakeip') _fakeIp: unknown,
    @Headers('user-agent') _userAgent: string | undefined,
    @Headers('accept') _accept: string | undefined,
    @Headers('accept-language') _acceptLanguage: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    // The parameters above document the route; FeedAnswer reads them from the request, as the
    // fast path in front of Nest's router does (bootstrap.ts) for every request it takes.
    return this.answers.answer(secret, request, response);
  }
}
