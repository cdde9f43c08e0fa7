import { Injectable } from '@nestjs/common';
import {
  AUTH_MESSAGES,
  type Locale,
  PRIVACY_VERSION,
  type Profile,
  TERMS_VERSION,
  type TermsAcceptRequest,
  type TermsStatusResponse,
} from '@scn/proto';
import { AccountsRepository } from '../accounts/accounts.repository';
import type { ActiveSession } from './auth.repository';
import { AuthException } from './auth.exception';
import { isOwnAccount } from './own-account.decorator';
import type { SessionContext } from './session.service';

/** The signed-in account's profile and its terms acceptances (docs/product/records.md#market-and-wallet-records, docs/product/calls.md#market-and-account-calls). */
@Injectable()
export class ProfileService {
  constructor(private readonly accounts: AccountsRepository) {}

  async profile(session: ActiveSession): Promise<Profile> {
    const { account } = session;
    const terms = await this.accounts.latestTermsAcceptance(account.uuid);
    return {
      uuid: account.uuid,
      email: account.email,
      userType: account.userType,
      name: account.name,
      createdAt: account.createdAt.toISOString(),
      termsAcceptedAt: terms?.acceptedAt.toISOString() ?? null,
      locale: account.locale,
    };
  }

  /** Saves the session's own account's language (docs/i18n.md). */
  async setLocale(session: ActiveSession, locale: Locale): Promise<Locale> {
    await this.accounts.updateLocale(session.account.uuid, locale);
    return locale;
  }

  /**
   * Records an acceptance for the session's own account. Identity and address come from the
   * session and the request; a body naming another account is refused.
   */
  async acceptTerms(
    session: ActiveSession,
    record: TermsAcceptRequest,
    context: SessionContext,
  ): Promise<string> {
    const { account } = session;
    if (record.uuid !== undefined && !isOwnAccount(session, record.uuid)) {
      throw new AuthException('access_denied');
    }
    if (record.userType !== undefined && record.userType !== account.userType) {
      throw new AuthException('access_denied');
    }
    if (!record.acceptedTerms || !record.acceptedPrivacy)
      throw new AuthException('terms_not_accepted');
    await this.accounts.insertTermsAcceptance({
      accountUuid: account.uuid,
      termsVersion: record.termsVersion,
      privacyVersion: record.privacyVersion,
      ipAddress: context.ipAddress,
      userAgent: context.userAgent ?? record.userAgent ?? null,
      browserInfo: record.browserInfo ?? null,
      location: record.location ?? null,
      clientTimestamp: record.timestamp ?? null,
    });
    return AUTH_MESSAGES.termsRecorded;
  }

  async termsStatus(session: ActiveSession): Promise<TermsStatusResponse> {
    const latest = await this.accounts.latestTermsAcceptance(session.account.uuid);
    const current =
      latest?.termsVersion === TERMS_VERSION && latest.privacyVersion === PRIVACY_VERSION;
    return {
      success: true,
      accepted: Boolean(current),
      acceptedAt: latest?.acceptedAt.toISOString() ?? null,
      termsVersion: latest?.termsVersion ?? null,
      privacyVersion: latest?.privacyVersion ?? null,
      currentTermsVersion: TERMS_VERSION,
      currentPrivacyVersion: PRIVACY_VERSION,
    };
  }
}
