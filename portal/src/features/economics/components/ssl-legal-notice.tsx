import { useEconomicsT } from '../use-econ-format';
import '../economics.css';

/** docs/product/overview.md#clients-and-node-operators: what SSL is and is not. Shown on the economics page. */
export function SslLegalNotice() {
  const { t, f } = useEconomicsT();
  return (
    <aside className="econ-notice" aria-labelledby="ssl-legal-notice-title">
      <h3 id="ssl-legal-notice-title" className="econ-notice__title">
        {t('legal.title')}
      </h3>
      <p>{t('legal.text', { rate: f.rate() })}</p>
    </aside>
  );
}
