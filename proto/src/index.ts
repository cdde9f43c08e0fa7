export * from './rest/common.contract';
export * from './rest/auth.contract';
export * from './rest/contact.contract';
export * from './economics';
