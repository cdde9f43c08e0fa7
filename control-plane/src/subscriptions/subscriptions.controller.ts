import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type ChangeBillingTypeResponse,
  type MessageResponse,
  type RotateSubscriptionUrlResponse,
  type SubscriptionActionResponse,
  type SubscriptionCreationResponse,
  type SubscriptionQrCodesResponse,
  SUBSCRIPTION_MESSAGES,
  type SubscriptionsResponse,
} from '@scn/proto';
import type { Response } from 'express';
import type { ActiveSession } from '../auth/auth.repository';
import { OwnAccount } from '../auth/own-account.decorator';
import { CurrentSession, ForAccountType } from '../auth/session.guard';
import { UuidParam } from '../common/uuid-param';
import { AutoRenewDto, ChangeBillingTypeDto, CreateSubscriptionDto } from './dto/subscriptions.dto';
import { SubscriptionLifecycleService } from './subscription-lifecycle.service';
import { SubscriptionPaidChangesService } from './subscription-paid-changes.service';
import { SubscriptionPurchaseService } from './subscription-purchase.service';
import { type SubscriptionFile, SubscriptionViewsService } from './subscription-views.service';
import { SubscriptionsException } from './subscriptions.exception';

const notFound = () => SubscriptionsException.of('not_found');
const fileNotFound = () => SubscriptionsException.of('file_not_found');

/**
 * docs/product/calls.md#market-and-account-calls and docs/product/calls.md#dashboard-calls `clients/*` calls. Prices and rewards are computed by the service;
 * every `{uuid}` path is the session's own account (OwnAccount), and an `{id}` that is not
 * one of its subscriptions is 404.
 */
@ApiTags('subscriptions')
@Controller()
@ForAccountType('client')
export class SubscriptionsController {
  constructor(
    private readonly purchase: SubscriptionPurchaseService,
    private readonly views: SubscriptionViewsService,
    private readonly lifecycle: SubscriptionLifecycleService,
    private readonly paidChanges: SubscriptionPaidChangesService,
  ) {}

  @Post(['api/clients/create-subscription', 'clients/create-subscription'])
  @ForAccountType('client', () => SubscriptionsException.of('clients_only'))
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Buys a subscription to 1-50 servers in one transaction (price computed here; header Idempotency-Key makes it happen once)',
  })
  create(
    @Body() body: CreateSubscriptionDto,
    @CurrentSession() session: ActiveSession,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<SubscriptionCreationResponse> {
    return this.purchase.create(session, body, idempotencyKey);
  }

  @Get('api/clients/subscriptions/:uuid')
  @ApiOperation({ summary: 'Active subscriptions (spec 02 §3 fields)' })
  async active(@OwnAccount() uuid: string): Promise<SubscriptionsResponse> {
    return {
      success: true,
      subscriptions: await this.views.listActive(uuid),
    };
  }

  @Get('api/clients/paused-subscriptions/:uuid')
  @ApiOperation({ summary: 'Paused and expired subscriptions (activate resumes either)' })
  async paused(@OwnAccount() uuid: string): Promise<SubscriptionsResponse> {
    return {
      success: true,
      subscriptions: await this.views.listPaused(uuid),
    };
  }

  @Post('api/clients/subscription/:uuid/:id/pause')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Pauses within the allowance (hourly: 2 per 24 h, up to 8 h each; monthly: 1 free 7-day pause per 6 months); 409 beyond it',
  })
  pause(
    @OwnAccount() uuid: string,
    @UuidParam('id', notFound) id: string,
  ): Promise<SubscriptionActionResponse> {
    return this.lifecycle.pause(uuid, id);
  }

  @Post('api/clients/subscription/:uuid/:id/activate')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Resumes a pause for free; an expired or unpaid subscription pays one period (402 with balance and required when short)',
  })
  activate(
    @OwnAccount() uuid: string,
    @UuidParam('id', notFound) id: string,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<SubscriptionActionResponse> {
    return this.paidChanges.activate(uuid, id, idempotencyKey);
  }

  @Post('api/clients/subscription/:uuid/:id/change-type')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Changes the billing cycle for 10 SSL per server (a new period now, no refund); pauses the subscription when the wallet is short',
  })
  changeType(
    @OwnAccount() uuid: string,
    @UuidParam('id', notFound) id: string,
    @Body() body: ChangeBillingTypeDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<ChangeBillingTypeResponse> {
    return this.paidChanges.changeType(uuid, id, body.newBillingCycle, idempotencyKey);
  }

  @Post('api/clients/subscription/:uuid/:id/auto-renew')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Turns renewal at the end of each period on or off (off: the subscription expires and leaves its nodes)',
  })
  setAutoRenew(
    @OwnAccount() uuid: string,
    @UuidParam('id', notFound) id: string,
    @Body() body: AutoRenewDto,
  ): Promise<SubscriptionActionResponse> {
    return this.lifecycle.setAutoRenew(uuid, id, body.autoRenew);
  }

  @Delete('api/clients/subscription/:uuid/:id')
  @ApiOperation({ summary: 'Deletes a subscription: its uuid leaves every node, its URL stops' })
  async remove(
    @OwnAccount() uuid: string,
    @UuidParam('id', notFound) id: string,
  ): Promise<MessageResponse> {
    await this.lifecycle.remove(uuid, id);
    return { success: true, message: SUBSCRIPTION_MESSAGES.deleted };
  }

  @Get('api/clients/subscription/:uuid/:id/qr-codes')
  @ApiOperation({ summary: 'QR codes (PNG data URLs, 180 px, level L): group and per server' })
  qrCodes(
    @OwnAccount() uuid: string,
    @UuidParam('id', notFound) id: string,
  ): Promise<SubscriptionQrCodesResponse> {
    return this.views.qrCodesOf(uuid, id);
  }

  @Post('api/clients/subscription/:uuid/:id/rotate-url')
  @HttpCode(200)
  @ApiOperation({ summary: 'Issues a new subscription URL; the old one answers 404' })
  rotateUrl(
    @OwnAccount() uuid: string,
    @UuidParam('id', notFound) id: string,
  ): Promise<RotateSubscriptionUrlResponse> {
    return this.lifecycle.rotateUrl(uuid, id);
  }

  @Get('api/clients/download-subscription/:uuid/:fileName')
  @ApiOperation({ summary: 'group_<id>.txt (base64 link list) or raw_<id>.txt (one per line)' })
  async download(
    @OwnAccount() uuid: string,
    @Param('fileName') fileName: string,
    @Res() response: Response,
  ): Promise<void> {
    sendFile(response, await this.views.file(uuid, fileName));
  }

  @Get('clients/download-subscription/:subscriptionId/:fileName')
  @ApiOperation({ summary: "The same files by subscription id (the session's own only)" })
  async downloadById(
    @UuidParam('subscriptionId', fileNotFound) subscriptionId: string,
    @Param('fileName') fileName: string,
    @CurrentSession() session: ActiveSession,
    @Res() response: Response,
  ): Promise<void> {
    sendFile(response, await this.views.file(session.account.uuid, fileName, subscriptionId));
  }
}

function sendFile(response: Response, file: SubscriptionFile): void {
  response.setHeader('Content-Type', 'text/plain; charset=utf-8');
  response.setHeader('Content-Disposition', `attachment; filename="${file.fileName}"`);
  response.setHeader('Cache-Control', 'no-store');
  response.status(200).send(file.content);
}
