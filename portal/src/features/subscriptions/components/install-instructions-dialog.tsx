import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import type { InstallPlatform } from '../client-apps';
import '../subscriptions.css';

export interface InstallInstructionsDialogProps {
  platform: InstallPlatform | null;
  /** The downloaded file, for the checksum command. */
  fileName: string | null;
  onClose: () => void;
}

/**
 * spec 01 §2 Installation Instructions: macOS (macos-arm64, macos-intel) or Windows steps and an
 * 'I understand' button; the steps are only needed during the testing phase.
 */
export function InstallInstructionsDialog({
  platform,
  fileName,
  onClose,
}: InstallInstructionsDialogProps) {
  const file = fileName ?? (platform === 'windows' ? 'v2rayN-windows-64.zip' : 'v2rayN-macos.dmg');
  return (
    <Dialog
      open={platform !== null}
      onClose={onClose}
      title="Installation Instructions"
      description={platform === 'windows' ? 'Windows 10/11' : 'macOS'}
      data-testid="install-instructions"
    >
      {platform === 'windows' ? (
        <ol className="install-steps">
          <li>
            Check the download: in PowerShell run{' '}
            <code>Get-FileHash .\{file} -Algorithm SHA256</code> and compare it with the SHA-256
            shown in the list.
          </li>
          <li>Extract the zip into a folder of its own and start v2rayN.exe.</li>
          <li>
            If Windows SmartScreen warns about the app, choose <strong>More info</strong>, then{' '}
            <strong>Run anyway</strong>.
          </li>
          <li>
            Copy your connection link or subscription URL on the dashboard, then in v2rayN choose{' '}
            <strong>Import Share Links from clipboard</strong> and connect.
          </li>
        </ol>
      ) : (
        <ol className="install-steps">
          <li>
            Check the download: in Terminal run <code>shasum -a 256 ~/Downloads/{file}</code> and
            compare it with the SHA-256 shown in the list.
          </li>
          <li>Open the disk image and drag v2rayN into Applications.</li>
          <li>
            If macOS says the app is damaged or from an unidentified developer, run{' '}
            <code>xattr -cr /Applications/v2rayN.app</code> in Terminal, then open it again.
          </li>
          <li>
            Copy your connection link or subscription URL on the dashboard, then in v2rayN choose{' '}
            <strong>Import Share Links from clipboard</strong> and connect.
          </li>
        </ol>
      )}
      <p className="small muted">These steps are only needed during the testing phase.</p>
      <div className="dialog__actions">
        <Button variant="primary" onClick={onClose} data-autofocus>
          I understand
        </Button>
      </div>
    </Dialog>
  );
}
