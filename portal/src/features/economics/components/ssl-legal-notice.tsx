import { SSL_USD_PRICE_TEXT } from '@scn/proto';
import '../economics.css';

/** spec 02 §1: what SSL is and is not. Shown on the economics page. */
export function SslLegalNotice() {
  return (
    <aside className="econ-notice" aria-labelledby="ssl-legal-notice-title">
      <h3 id="ssl-legal-notice-title" className="econ-notice__title">
        Legal notice: SSL tokens
      </h3>
      <p>
        SSL tokens are non-tradable internal credits used only to pay for and reward services inside
        the Secure Connection Network. They are not cryptocurrency, securities or investments. They
        have no value outside the network and cannot be exchanged for fiat currency or any other
        asset. The {SSL_USD_PRICE_TEXT} per SSL figure is a service rate for pricing, not a market
        price.
      </p>
    </aside>
  );
}
