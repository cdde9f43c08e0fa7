import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useT } from '../../../lib/i18n/i18n';

/**
 * Asked once before the first reachability report (docs/reachability.md): exactly what is sent,
 * and nothing else. Agreeing is remembered in this browser and can be withdrawn.
 */
export function ReachabilityConsentDialog({
  open,
  onClose,
  onAgree,
}: {
  open: boolean;
  onClose: () => void;
  onAgree: () => void;
}) {
  const { t } = useT('client');
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('reach.consent.title')}
      size="sm"
      data-testid="reach-consent-dialog"
    >
      <p>{t('reach.consent.intro')}</p>
      <ul className="check-list">
        <li>{t('reach.consent.server')}</li>
        <li>{t('reach.consent.works')}</li>
        <li>{t('reach.consent.network')}</li>
      </ul>
      <p className="small muted">{t('reach.consent.nothingElse')}</p>
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onClose} data-autofocus>
          {t('reach.consent.cancel')}
        </Button>
        <Button variant="primary" onClick={onAgree} data-testid="reach-consent-agree">
          {t('reach.consent.agree')}
        </Button>
      </div>
    </Dialog>
  );
}
