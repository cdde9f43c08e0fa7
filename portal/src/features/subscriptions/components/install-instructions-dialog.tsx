import { Trans } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useT } from '../../../lib/i18n/i18n';
import type { InstallPlatform } from '../client-apps';
import '../subscriptions.css';

export interface InstallInstructionsDialogProps {
  platform: InstallPlatform | null;
  /** The downloaded file, for the checksum command. */
  fileName: string | null;
  onClose: () => void;
}

/**
 * docs/product/screens.md#the-shell-and-the-market-screens Installation Instructions: macOS (macos-arm64, macos-intel) or Windows steps and an
 * 'I understand' button; the steps are only needed during the testing phase.
 */
export function InstallInstructionsDialog({
  platform,
  fileName,
  onClose,
}: InstallInstructionsDialogProps) {
  const { t } = useT('client');
  const file = fileName ?? (platform === 'windows' ? 'v2rayN-windows-64.zip' : 'v2rayN-macos.dmg');
  const markup = { code: <code dir="ltr" />, strong: <strong /> };
  return (
    <Dialog
      open={platform !== null}
      onClose={onClose}
      title={t('install.title')}
      description={platform === 'windows' ? t('install.windows') : 'macOS'}
      data-testid="install-instructions"
    >
      {platform === 'windows' ? (
        <ol className="install-steps">
          <li>
            <Trans
              ns="client"
              i18nKey="install.windowsSteps.check"
              values={{ command: `Get-FileHash .\\${file} -Algorithm SHA256` }}
              components={markup}
            />
          </li>
          <li>{t('install.windowsSteps.extract')}</li>
          <li>
            <Trans ns="client" i18nKey="install.windowsSteps.smartScreen" components={markup} />
          </li>
          <li>
            <Trans ns="client" i18nKey="install.import" components={markup} />
          </li>
        </ol>
      ) : (
        <ol className="install-steps">
          <li>
            <Trans
              ns="client"
              i18nKey="install.macSteps.check"
              values={{ command: `shasum -a 256 ~/Downloads/${file}` }}
              components={markup}
            />
          </li>
          <li>{t('install.macSteps.drag')}</li>
          <li>
            <Trans
              ns="client"
              i18nKey="install.macSteps.quarantine"
              values={{ command: 'xattr -cr /Applications/v2rayN.app' }}
              components={markup}
            />
          </li>
          <li>
            <Trans ns="client" i18nKey="install.import" components={markup} />
          </li>
        </ol>
      )}
      <p className="small muted">{t('install.testingPhase')}</p>
      <div className="dialog__actions">
        <Button variant="primary" onClick={onClose} data-autofocus>
          {t('install.understood')}
        </Button>
      </div>
    </Dialog>
  );
}
