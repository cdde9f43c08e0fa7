/**
 * The browser-safe part of the contract: REST schemas, messages and business constants.
 * The portal imports only this (its `@scn/proto` alias points here); the gRPC part needs Node.
 */
export * from './rest/common.contract';
export * from './rest/error-codes';
export * from './rest/auth.contract';
export * from './rest/contact.contract';
export * from './rest/nodes.contract';
export * from './rest/market.contract';
export * from './rest/reachability.contract';
export * from './rest/vless';
export * from './economics';
export * from './money';
export * from './rest/wallet.contract';
export * from './rest/transaction-descriptions';
export * from './rest/deposits.contract';
export * from './rest/withdrawals.contract';
export * from './rest/subscriptions.contract';
export * from './rest/downloads.contract';
export * from './rest/economics.contract';
export * from './rest/rewards.contract';
export * from './rest/staking.contract';
export * from './rest/promotions.contract';
export * from './rest/reliability.contract';
export * from './rest/traffic.contract';
export * from './rest/social.contract';
export * from './countries';
export * from './portal-pages';
export * from './locales';
export * from './app-import-links';
