import { SSL_USD_PRICE_TEXT } from '@scn/proto';
import { EconomicsTabs } from '../../features/economics/components/economics-tabs';
import { InfoPageHeader } from '../../features/info/components/info-page-header';
import { useDocumentTitle } from '../../features/info/use-document-title';

/** /economics (spec 02 §2, §9): prices for clients and rewards for node operators. */
export function EconomicsRoute() {
  useDocumentTitle('Service Economics');
  return (
    <div className="info-page page container">
      <InfoPageHeader
        eyebrow="Pricing & rewards"
        title="Service Economics"
        lead={`How SSL credits flow through the network: what clients pay for access, and how node operators are rewarded for keeping it open. 1 SSL = ${SSL_USD_PRICE_TEXT}.`}
      />
      <EconomicsTabs />
    </div>
  );
}
