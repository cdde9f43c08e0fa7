import { DOWNLOADS_MESSAGES } from '@scn/proto';
import { DomainException, type ErrorKinds } from '../common/domain.exception';

export type DownloadsErrorCode = 'agent_bundle_missing' | 'client_apk_not_mirrored';

export class DownloadsException extends DomainException {
  static override readonly domain = 'downloads';
  static readonly kinds: ErrorKinds<DownloadsErrorCode> = {
    agent_bundle_missing: 'not_found',
    client_apk_not_mirrored: 'not_found',
  };

  constructor(readonly code: DownloadsErrorCode) {
    super(
      DownloadsException.kinds[code],
      code === 'agent_bundle_missing'
        ? DOWNLOADS_MESSAGES.agentBundleMissing
        : DOWNLOADS_MESSAGES.clientApkNotMirrored,
    );
  }
}
