import { Controller, Get, HttpException, HttpStatus } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get('healthz')
  @ApiOperation({ summary: 'Liveness and database reachability' })
  async health(): Promise<{ success: true; status: 'ok'; database: 'ok'; uptimeSeconds: number }> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new HttpException({ message: 'Database unreachable' }, HttpStatus.SERVICE_UNAVAILABLE);
    }
    return {
      success: true,
      status: 'ok',
      database: 'ok',
      uptimeSeconds: Math.round(process.uptime()),
    };
  }
}
