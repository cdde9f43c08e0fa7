import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { CheckSharesResponse, RecordShareResponse } from '@scn/proto';
import type { ActiveSession } from '../auth/auth.repository';
import { AuthException } from '../auth/auth.exception';
import { isOwnAccount, OwnAccount } from '../auth/own-account.decorator';
import { CurrentSession, SessionGuard } from '../auth/session.guard';
import { AddSocialRewardDto, RecordShareDto } from './dto/social.dto';
import { SocialService } from './social.service';

/**
 * docs/product/calls.md#market-and-account-calls and docs/product/calls.md#dashboard-calls share-and-earn calls: any signed-in user, for their own
 * account only (`{uuid}` and `userId`, 403 otherwise). The server computes every reward.
 */
@ApiTags('social')
@Controller()
@UseGuards(SessionGuard)
export class SocialController {
  constructor(private readonly social: SocialService) {}

  @Get('api/social/check-shares/:uuid')
  @ApiOperation({
    summary:
      'Which platforms (twitter, instagram, telegram) can be shared to now (one share per platform per 7 days), the pending reward and the latest shares',
  })
  check(@OwnAccount() uuid: string): Promise<CheckSharesResponse> {
    return this.social.check(uuid);
  }

  @Post('api/social/record-share')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Records a share: postUrl an https post of the platform (one claim per post across all accounts), timeZone the IANA zone; the server computes the reward (1 SSL at prime time, else 0.1; 1 SSL per 24 hours at most), pending 24 hours',
  })
  record(
    @Body() body: RecordShareDto,
    @CurrentSession() session: ActiveSession,
  ): Promise<RecordShareResponse> {
    if (!isOwnAccount(session, body.userId)) throw new AuthException('access_denied');
    return this.social.record(session.account.uuid, body);
  }

  @Post('wallet/add-social-reward')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "The client dashboard's social reward (spec 02 §7): never takes an amount (a body naming one is refused); records a share exactly like record-share, with the same reward rule and 24-hour pending payout",
  })
  addSocialReward(
    @Body() body: AddSocialRewardDto,
    @CurrentSession() session: ActiveSession,
  ): Promise<RecordShareResponse> {
    if (!isOwnAccount(session, body.userId)) throw new AuthException('access_denied');
    return this.social.record(session.account.uuid, body);
  }
}
