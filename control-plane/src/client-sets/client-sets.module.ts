import { Module } from '@nestjs/common';
import { ClientSetNotifier } from './client-set.notifier';
import { ClientSetsRepository } from './client-sets.repository';
import { ClientSetsService } from './client-sets.service';

/**
 * The client sets of the servers: who may connect to each node, versioned, and heard by every
 * replica through LISTEN/NOTIFY. Subscriptions change them; the gRPC server pushes them.
 */
@Module({
  providers: [ClientSetsRepository, ClientSetsService, ClientSetNotifier],
  // ClientSetNotifier: the readiness check asks whether its LISTEN is in place.
  exports: [ClientSetsService, ClientSetNotifier],
})
export class ClientSetsModule {}
