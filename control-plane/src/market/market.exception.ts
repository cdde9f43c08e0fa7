import { MARKET_MESSAGES } from '@scn/proto';
import { DomainException, type ErrorKind, kindsOf } from '../common/domain.exception';

export type MarketErrorCode = 'server_not_found' | 'clients_only' | 'server_unavailable';

const ERRORS: Record<MarketErrorCode, { kind: ErrorKind; message: string }> = {
  server_not_found: { kind: 'not_found', message: MARKET_MESSAGES.serverNotFound },
  clients_only: { kind: 'forbidden', message: MARKET_MESSAGES.clientsOnly },
  server_unavailable: { kind: 'conflict', message: MARKET_MESSAGES.serverUnavailable },
};

export class MarketException extends DomainException {
  static override readonly domain = 'market';
  static readonly kinds = kindsOf(ERRORS);

  constructor(readonly code: MarketErrorCode) {
    const { kind, message } = ERRORS[code];
    super(kind, message);
  }
}
