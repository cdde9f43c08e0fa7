import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useT } from '../../../lib/i18n/i18n';
import '../wallet.css';

/** The deposit QR's size in CSS pixels. */
export const DEPOSIT_QR_SIZE = 200;

/**
 * docs/product/input-rules.md#market-and-account-input: the deposit QR at error correction level H, encoding the Solana Pay transfer-request
 * URL (`solana:<address>?amount=..&reference=..`) that mobile wallets scan. Give it a `key` per URL.
 */
export function DepositQr({ url }: { url: string }) {
  const { t } = useT('wallet');
  const [drawn, setDrawn] = useState<{ src: string } | { failed: true } | null>(null);

  useEffect(() => {
    let cancelled = false;
    QRCode.toDataURL(url, { errorCorrectionLevel: 'H', width: DEPOSIT_QR_SIZE, margin: 1 }).then(
      (src) => !cancelled && setDrawn({ src }),
      () => !cancelled && setDrawn({ failed: true }),
    );
    return () => {
      cancelled = true;
    };
  }, [url]);

  if (drawn && 'failed' in drawn) {
    return (
      <div className="deposit-qr deposit-qr--message" role="alert" data-testid="deposit-qr-error">
        <strong>{t('deposit.qr.errorTitle')}</strong>
        <span className="small muted">{t('deposit.qr.errorBody')}</span>
      </div>
    );
  }
  if (!drawn) {
    return (
      <div className="deposit-qr deposit-qr--message" role="status">
        <span className="spinner" aria-hidden="true" />
      </div>
    );
  }
  return (
    <img
      className="deposit-qr"
      src={drawn.src}
      alt={t('deposit.qr.alt')}
      width={DEPOSIT_QR_SIZE}
      height={DEPOSIT_QR_SIZE}
      data-testid="deposit-qr"
      data-level="H"
      data-url={url}
    />
  );
}
