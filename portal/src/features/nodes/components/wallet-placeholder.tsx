/** spec 02 §2 wallet section: the node wallet is a later release; no balances are invented. */
export function WalletPlaceholder() {
  return (
    <section
      className="card node-wallet"
      aria-labelledby="node-wallet-title"
      data-testid="node-wallet"
    >
      <h2 id="node-wallet-title">Node Wallet</h2>
      <p className="node-wallet__empty">No wallet data available</p>
      <p className="small muted">
        Balances, frozen rewards and withdrawals arrive with a later release of the node wallet.
      </p>
    </section>
  );
}
