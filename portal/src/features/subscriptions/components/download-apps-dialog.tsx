import type { ClientChecksums, ClientPlatform } from '@scn/proto';
import { useEffect, useState } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { formatBytes } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { getClientChecksums } from '../api/get-client-checksums';
import {
  APK_DOWNLOADS,
  DESKTOP_PLATFORMS,
  DESKTOP_RELEASES_URL,
  IOS_ALTERNATIVES,
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
 * docs/product/screens.md#dashboards-and-information-pages Download Client App: the desktop platforms with each download's SHA-256
 * ('Calculating...' until GET /checksums/client answers), and third-party apps for iOS and
 * Android. A desktop download opens the installation instructions for its system.
 */
export function DownloadAppsDialog({ open, onClose }: DownloadAppsDialogProps) {
  const { t } = useT('client');
  const [instructions, setInstructions] = useState<{
    platform: InstallPlatform;
    fileName: string | null;
  } | null>(null);
  return (
    <>
      <Dialog
        open={open}
        onClose={onClose}
        title={t('apps.title')}
        description={t('apps.description')}
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
  const { t } = useT('client');
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
                  <code data-testid="checksum" dir="ltr">
                    {checksums.status === 'loading'
                      ? t('apps.calculating')
                      : entry
                        ? entry.checksum
                        : t('apps.unavailable')}
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
                {t('apps.download')}
              </a>
            </li>
          );
        })}
      </ul>
      <h3 className="download-apps__mobile-title">{t('apps.mobile')}</h3>
      <p className="small muted">{t('apps.mobileNote')}</p>
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
                {t('apps.onStore', { app: mobile.app, store: mobile.store })}
              </span>
            </div>
            <a
              className={buttonClass({ variant: 'secondary', size: 'sm' })}
              href={mobile.url}
              target="_blank"
              rel="noopener noreferrer"
            >
              {t('apps.get', { app: mobile.app })}
            </a>
          </li>
        ))}
      </ul>

      <ApkDownloads checksums={checksums} />
      <IosAlternatives />
    </div>
  );
}

/**
 * The Android APKs of the official releases. Mirrored by this control plane: the copy it serves
 * with the SHA-256 it computed over exactly those bytes (GitHub is slow or blocked on many
 * networks in China and Iran), GitHub and the release page as the alternative. Not mirrored:
 * the GitHub download, with its published SHA-256 or the release page that lists it.
 */
function ApkDownloads({ checksums }: { checksums: Checksums }) {
  const { t, locale } = useT('client');
  return (
    <>
      <h4 className="download-apps__subtitle">{t('apps.apk.title')}</h4>
      <p className="small muted">{t('apps.apk.note')}</p>
      <ul className="download-apps__list" data-testid="apk-downloads">
        {APK_DOWNLOADS.map((id) => {
          const apk = checksums.status === 'ready' ? checksums.data[id] : null;
          const mirror = apk?.mirror ?? null;
          return (
            <li key={id} className="download-app" data-testid={`apk-${id}`}>
              <div className="download-app__text">
                <span className="download-app__name">
                  {apk ? `${apk.app} ${apk.version}` : t('apps.apk.name')}
                </span>
                {apk && (
                  <span className="small muted">
                    {t('apps.apk.package')} <code dir="ltr">{apk.packageName}</code>
                  </span>
                )}
                {apk && mirror && (
                  <span className="small muted" data-testid="apk-mirrored">
                    {t('apps.apk.mirrored', { size: formatBytes(mirror.sizeBytes, locale) })}
                  </span>
                )}
                <span className="download-app__checksum small">
                  SHA-256:{' '}
                  {checksums.status === 'loading' ? (
                    <code data-testid="checksum">{t('apps.calculating')}</code>
                  ) : apk?.checksum ? (
                    <bdi>
                      <code data-testid="checksum" dir="ltr">
                        {apk.checksum}
                      </code>
                    </bdi>
                  ) : apk ? (
                    <a
                      href={apk.source}
                      target="_blank"
                      rel="noopener noreferrer"
                      data-testid="checksum-source"
                    >
                      {t('apps.apk.onReleasePage')}
                    </a>
                  ) : (
                    <code data-testid="checksum">{t('apps.unavailable')}</code>
                  )}
                </span>
                {apk && mirror && (
                  <span className="download-app__alternatives small">
                    <a
                      href={apk.url}
                      target="_blank"
                      rel="noopener noreferrer"
                      data-testid={`upstream-${id}`}
                    >
                      {t('apps.apk.fromGithub')}
                    </a>
                    <a
                      href={apk.source}
                      target="_blank"
                      rel="noopener noreferrer"
                      data-testid={`release-${id}`}
                    >
                      {t('apps.apk.releasePage')}
                    </a>
                  </span>
                )}
              </div>
              {apk && (
                <a
                  className={buttonClass({ variant: mirror ? 'primary' : 'secondary', size: 'sm' })}
                  href={mirror ? mirror.url : apk.url}
                  {...(mirror
                    ? { download: apk.fileName }
                    : { target: '_blank', rel: 'noopener noreferrer' })}
                  data-testid={`download-${id}`}
                >
                  {t('apps.apk.download')}
                </a>
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** iOS apps that import the same links, for a region whose App Store lacks Streisand. */
function IosAlternatives() {
  const { t } = useT('client');
  return (
    <>
      <h4 className="download-apps__subtitle">{t('apps.ios.title')}</h4>
      <p className="small muted">{t('apps.ios.note')}</p>
      <ul className="download-apps__list" data-testid="ios-alternatives">
        {IOS_ALTERNATIVES.map((app) => (
          <li key={app.id} className="download-app" data-testid={`ios-${app.id}`}>
            <div className="download-app__text">
              <span className="download-app__name">{app.app}</span>
              <span className="small muted">
                {app.paid ? t('apps.ios.paid') : t('apps.ios.free')}
              </span>
            </div>
            <a
              className={buttonClass({ variant: 'secondary', size: 'sm' })}
              href={app.url}
              target="_blank"
              rel="noopener noreferrer"
            >
              {t('apps.get', { app: app.app })}
            </a>
          </li>
        ))}
      </ul>
    </>
  );
}
