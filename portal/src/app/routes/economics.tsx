import { EconomicsTabs } from '../../features/economics/components/economics-tabs';
import { useEconomicsT } from '../../features/economics/use-econ-format';
import { InfoPageHeader } from '../../features/info/components/info-page-header';
import { useDocumentTitle } from '../../features/info/use-document-title';

/** /economics (docs/product/screens.md#dashboards-and-information-pages, docs/product/constants.md#billing-and-the-economy): prices for clients and rewards for node operators. */
export function EconomicsRoute() {
  const { t, f } = useEconomicsT();
  useDocumentTitle(t('page.title'));
  return (
    <div className="info-page page container">
      <InfoPageHeader
        eyebrow={t('page.eyebrow')}
        title={t('page.title')}
        lead={t('page.lead', { rate: f.rate() })}
      />
      <EconomicsTabs />
    </div>
  );
}
