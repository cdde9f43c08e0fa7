import { DOWNLOADS_MESSAGES } from '@scn/proto';
import { DomainException } from '../common/domain.exception';

export type DownloadsErrorCode = 'agent_bundle_missing';

export class DownloadsException extends DomainException {
  constructor(readonly code: DownloadsErrorCode) {
    super('not_found', DOWNLOADS_MESSAGES.agentBundleMissing);
  }
}
