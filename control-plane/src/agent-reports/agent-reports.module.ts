import { Module } from '@nestjs/common';
import { MarketModule } from '../market/market.module';
import { NodeDnsModule } from '../node-dns/node-dns.module';
import { NodesModule } from '../nodes/nodes.module';
import { ReliabilityHistoryModule } from '../reliability-history/reliability-history.module';
import { TrafficStoreModule } from '../traffic/traffic.module';
import { AgentAuthService } from './agent-auth.service';
import { AgentReportRepository } from './agent-report.repository';
import { AgentReportsService } from './agent-reports.service';
import { ReliabilitySweepJob } from './reliability-sweep.job';
import { ReliabilitySweepService } from './reliability-sweep.service';

/**
 * What agents tell the control plane (docs/product/states.md#subscription-and-reliability-states): their credentials checked, their reports
 * applied in batches, and the minute sweep that writes every server's reliability history, moves
 * silent servers through the 95%/14-day lifecycle and then refreshes the market (so this domain depends on the market, not the reverse).
 */
@Module({
  imports: [MarketModule, NodeDnsModule, NodesModule, ReliabilityHistoryModule, TrafficStoreModule],
  providers: [
    AgentReportRepository,
    AgentAuthService,
    AgentReportsService,
    ReliabilitySweepService,
    ReliabilitySweepJob,
  ],
  exports: [AgentAuthService, AgentReportsService],
})
export class AgentReportsModule {}
