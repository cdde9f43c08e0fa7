import { SUBSCRIPTION_QR_SIZE } from '@scn/proto';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useT } from '../../../lib/i18n/i18n';
import '../subscriptions.css';
import { messageOf } from '../../../lib/error-message';

export interface QrImageProps {
  /** A PNG data URL made by the server; when null the code is drawn here from `text`. */
  qrCode: string | null;
  /** The server found the text too long for a QR code. */
  tooComplex: boolean;
  text: string;
  alt: string;
  'data-testid'?: string;
}

type Drawn = { src: string } | { failure: 'too-complex' | 'error' } | null;

/** The qrcode package refuses text beyond a version-40 code with this message. */
const TOO_BIG = /too big|too long|exceed/i;

/**
 * One QR code, 180 px at error correction L (docs/product/input-rules.md#market-and-account-input, docs/product/constants.md#market-prices-and-limits): the server's PNG, or one drawn in
 * the browser from the connection string. Too much text gives 'QR Code Too Complex', any other
 * failure the docs/product/messages.md#dashboard-messages QR error; both point to the copy option. Give it a `key` per text: a
 * new text is a new image.
 */
export function QrImage({ qrCode, tooComplex, text, alt, 'data-testid': testId }: QrImageProps) {
  const { t } = useT('client');
  const [drawn, setDrawn] = useState<Drawn>(null);
  const [broken, setBroken] = useState(false);

  useEffect(() => {
    if (qrCode || tooComplex) return;
    let cancelled = false;
    QRCode.toDataURL(text, {
      errorCorrectionLevel: 'L',
      width: SUBSCRIPTION_QR_SIZE,
      margin: 1,
    }).then(
      (src) => !cancelled && setDrawn({ src }),
      (error: unknown) => {
        if (cancelled) return;
        const message = messageOf(error, String(error));
        setDrawn({ failure: TOO_BIG.test(message) ? 'too-complex' : 'error' });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [qrCode, tooComplex, text]);

  if (tooComplex || (drawn && 'failure' in drawn && drawn.failure === 'too-complex')) {
    return (
      <div className="qr-image qr-image--message" role="status" data-testid="qr-too-complex">
        <strong>{t('qr.image.tooComplex')}</strong>
        <span className="small muted">{t('qr.image.tooComplexBody')}</span>
      </div>
    );
  }
  if (broken || (drawn && 'failure' in drawn)) {
    return (
      <div className="qr-image qr-image--message" role="alert" data-testid="qr-render-error">
        <strong>{t('qr.image.error')}</strong>
        <span className="small muted">{t('qr.image.errorBody')}</span>
      </div>
    );
  }
  const src = qrCode ?? (drawn && 'src' in drawn ? drawn.src : null);
  if (!src) {
    return (
      <div className="qr-image qr-image--message" role="status">
        <span className="spinner" aria-hidden="true" />
      </div>
    );
  }
  return (
    <img
      className="qr-image"
      src={src}
      alt={alt}
      width={SUBSCRIPTION_QR_SIZE}
      height={SUBSCRIPTION_QR_SIZE}
      onError={() => setBroken(true)}
      data-testid={testId}
      data-source={qrCode ? 'server' : 'browser'}
    />
  );
}
