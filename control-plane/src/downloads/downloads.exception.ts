import { DOWNLOADS_MESSAGES } from '@scn/proto';
import { DomainException, type ErrorKinds } from '../common/domain.exception';

export type DownloadsErrorCode = 'agent_bundle_missing';

export class DownloadsException extends DomainException {
  static override readonly domain = 'downloads';
  static readonly kinds: ErrorKinds<DownloadsErrorCode> = { agent_bundle_missing: 'not_found' };

  constructor(readonly code: DownloadsErrorCode) {
    super(DownloadsException.kinds[code], DOWNLOADS_MESSAGES.agentBundleMissing);
  }
}
