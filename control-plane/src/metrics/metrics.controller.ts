import {
  Controller,
  Get,
  Headers,
  Inject,
  NotFoundException,
  Res,
  UnauthorizedException,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { metricsAccess } from './metrics-access';
import { MetricsRegistry } from './metrics-registry';

/** GET /metrics on the API port, for the holder of METRICS_TOKEN only (metrics-access.ts). */
@ApiTags('metrics')
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: MetricsRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('metrics')
  @ApiBearerAuth()
  @ApiProduces('text/plain')
  @ApiOperation({
    summary:
      'Prometheus metrics (Authorization: Bearer METRICS_TOKEN; 404 when METRICS_TOKEN is unset)',
  })
  async scrape(
    @Headers('authorization') authorization: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const access = metricsAccess(this.config.metrics.token, authorization, false);
    if (access === 'not_found') throw new NotFoundException();
    if (access === 'unauthorized') {
      response.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new UnauthorizedException('A valid metrics token is required');
    }
    const body = await this.metrics.metrics();
    response.setHeader('Content-Type', this.metrics.contentType);
    response.setHeader('Cache-Control', 'no-store');
    // end(), not send(): Express would rewrite the exposition format's content type.
    response.status(200).end(body);
  }
}
