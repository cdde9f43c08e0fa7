import { Body, Controller, Get, Headers, HttpCode, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type AutoStakeResponse,
  stakeAmountMicro,
  type StakeMoveResponse,
  type StakingResponse,
} from '@scn/proto';
import { OwnAccount } from '../auth/own-account.decorator';
import { ForAccountType } from '../auth/session.guard';
import { DomainException } from '../common/domain.exception';
import { AutoStakeDto, StakeAmountDto } from './dto/staking.dto';
import { StakingException } from './staking.exception';
import { StakingService } from './staking.service';
import { StakingViewService } from './staking-view.service';

/** The validated body's amount (the contract's refinement already refused anything else). */
function amountOf(body: StakeAmountDto): bigint {
  const amount = stakeAmountMicro(body);
  if ('error' in amount) throw new DomainException('invalid', amount.error);
  return amount.micro;
}

/**
 * The staking calls of the node dashboard. Every `{uuid}` is the session's own account
 * (OwnAccount, 403 otherwise); node accounts only. Amounts are decided here, under locks.
 */
@ApiTags('staking')
@Controller()
@ForAccountType('node', () => new StakingException('not_a_node_account'))
export class StakingController {
  constructor(
    private readonly staking: StakingService,
    private readonly views: StakingViewService,
  ) {}

  @Get('api/nodes/:uuid/staking')
  @ApiOperation({
    summary:
      'Stake, unlocked and locked parts with their unlock dates, stakeable balance, automatic stake, income, halving requirement per server',
  })
  async view(@OwnAccount() uuid: string): Promise<StakingResponse> {
    return { success: true, data: await this.views.view(uuid) };
  }

  @Post('api/nodes/:uuid/stake')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Stakes amount (SSL) or amountMicro from the available node wallet (402 beyond it); locked 30 days; header Idempotency-Key makes it happen once',
  })
  stake(
    @OwnAccount() uuid: string,
    @Body() body: StakeAmountDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<StakeMoveResponse> {
    return this.staking.stake(uuid, amountOf(body), idempotencyKey);
  }

  @Post('api/nodes/:uuid/unstake')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Unstakes amount (SSL) or amountMicro to the node wallet: only stakes past their 30-day lock, oldest first (409 with the next unlock); header Idempotency-Key makes it happen once',
  })
  unstake(
    @OwnAccount() uuid: string,
    @Body() body: StakeAmountDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<StakeMoveResponse> {
    return this.staking.unstake(uuid, amountOf(body), idempotencyKey);
  }

  @Put('api/nodes/:uuid/staking/auto')
  @ApiOperation({ summary: 'Sets the automatic stake of each payout: percent, a whole 0-100' })
  setAuto(@OwnAccount() uuid: string, @Body() body: AutoStakeDto): Promise<AutoStakeResponse> {
    return this.staking.setAutoStake(uuid, body.percent);
  }
}
