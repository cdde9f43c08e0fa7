import type { ClientChecksums, ClientPlatform } from '@scn/proto';
import { useEffect, useState } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { getClientChecksums } from '../api/get-client-checksums';
import {
  DESKTOP_PLATFORMS,
  DESKTOP_RELEASES_URL,
  MOBILE_APPS,
  type InstallPlatform,
  installPlatformOf,
} from '../client-apps';
import { InstallInstructionsDialog } from './install-instructions-dialog';
import '../subscriptions.css';

export interface DownloadAppsDialogProps {
  open: boolean;
  onClose: () => void;
}

type Checksums =
  { status: 'loading' } | { status: 'ready'; data: ClientChecksums } | { status: 'error' };

/**
 * spec 02 §2 Download Client App: the desktop platforms with each download's SHA-256
 * ('Calculating...' until GET /checksums/client answers), and third-party apps for iOS and
 * Android. A desktop download opens the installation instructions for its system.
 */
export function DownloadAppsDialog({ open, onClose }: DownloadAppsDialogProps) {
  const [instructions, setInstructions] = useState<{
    platform: InstallPlatform;
    fileName: string | null;
  } | null>(null);
  return (
    <>
      <Dialog
        open={open}
        onClose={onClose}
        title="Download Client App"
        description="Connect with any VLESS client. These are the ones we recommend for each system."
        size="lg"
        data-testid="download-apps-dialog"
      >
        <DownloadAppsBody
          onDownloaded={(platform, fileName) =>
            setInstructions({ platform: installPlatformOf(platform), fileName })
          }
        />
      </Dialog>
      <InstallInstructionsDialog
        platform={instructions?.platform ?? null}
        fileName={instructions?.fileName ?? null}
        onClose={() => setInstructions(null)}
      />
    </>
  );
}

function DownloadAppsBody({
  onDownloaded,
}: {
  onDownloaded: (platform: ClientPlatform, fileName: string | null) => void;
}) {
  const [checksums, setChecksums] = useState<Checksums>({ status: 'loading' });

  useEffect(() => {
    let cancelled = false;
    getClientChecksums().then(
      ({ data }) => !cancelled && setChecksums({ status: 'ready', data }),
      () => !cancelled && setChecksums({ status: 'error' }),
    );
    return () => {
      cancelled = true;
    };
  }, []);

  return (
    <div className="download-apps">
      <ul className="download-apps__list" data-testid="desktop-platforms">
        {DESKTOP_PLATFORMS.map(({ platform, name }) => {
          const entry = checksums.status === 'ready' ? checksums.data[platform] : null;
          return (
            <li key={platform} className="download-app" data-testid={`platform-${platform}`}>
              <div className="download-app__text">
                <span className="download-app__name">{name}</span>
                <span className="small muted">
                  {entry ? `${entry.app} ${entry.version} · ${entry.label}` : platform}
                </span>
                <span className="download-app__checksum small">
                  SHA-256:{' '}
                  <code data-testid="checksum">
                    {checksums.status === 'loading'
                      ? 'Calculating...'
                      : entry
                        ? entry.checksum
                        : 'Unavailable'}
                  </code>
                </span>
              </div>
              <a
                className={buttonClass({ variant: 'primary', size: 'sm' })}
                href={entry?.url ?? DESKTOP_RELEASES_URL}
                target="_blank"
                rel="noopener noreferrer"
                onClick={() => onDownloaded(platform, entry?.fileName ?? null)}
                data-testid={`download-${platform}`}
              >
                Download
              </a>
            </li>
          );
        })}
      </ul>
      <h3 className="download-apps__mobile-title">Mobile</h3>
      <p className="small muted">
        For now the mobile apps are third-party apps from the app stores.
      </p>
      <ul className="download-apps__list">
        {MOBILE_APPS.map((mobile) => (
          <li
            key={mobile.platform}
            className="download-app"
            data-testid={`platform-${mobile.platform}`}
          >
            <div className="download-app__text">
              <span className="download-app__name">{mobile.name}</span>
              <span className="small muted">
                {mobile.app} on {mobile.store}
              </span>
            </div>
            <a
              className={buttonClass({ variant: 'secondary', size: 'sm' })}
              href={mobile.url}
              target="_blank"
              rel="noopener noreferrer"
            >
              Get {mobile.app}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
