import { AUTH_MESSAGES } from '@scn/proto';
import type { TFunction } from 'i18next';
import en from '../../locales/en.json';

/**
 * The contract's auth messages that the portal itself shows (its own checks and outcomes) in the
 * reader's language, by their AUTH_MESSAGES key (docs/i18n.md "Dynamic keys"). A message with no
 * translation yet is shown as it came. An API error is shown by its code instead, through
 * lib/api-error-message.ts, never by its English.
 */
export type AuthMessageKey = keyof typeof en.auth.messages;

function isAuthMessageKey(key: string): key is AuthMessageKey {
  return Object.hasOwn(en.auth.messages, key);
}

export function authMessage(t: TFunction, message: string): string {
  const key = Object.keys(AUTH_MESSAGES).find(
    (name) => AUTH_MESSAGES[name as keyof typeof AUTH_MESSAGES] === message,
  );
  return key && isAuthMessageKey(key) ? t(`auth.messages.${key}`) : message;
}
