import type { CookieOptions, Request, Response } from 'express';
import type { AppConfig } from '../config/app-config';

export const SESSION_COOKIE = 'scn_session';

function cookieOptions(config: AppConfig, request: Request): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.secureCookies || request.secure,
    path: '/',
  };
}

export function setSessionCookie(
  response: Response,
  request: Request,
  config: AppConfig,
  session: { token: string; expiresAt: Date },
): void {
  response.cookie(SESSION_COOKIE, session.token, {
    ...cookieOptions(config, request),
    expires: session.expiresAt,
  });
}

export function clearSessionCookie(response: Response, request: Request, config: AppConfig): void {
  response.clearCookie(SESSION_COOKIE, cookieOptions(config, request));
}

/** The session token of a request: the bearer token if present, else the session cookie. */
export function sessionTokenOf(request: Request): string | null {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    if (match?.[1]) return match[1];
  }
  const cookies = request.cookies as Record<string, unknown> | undefined;
  const cookie = cookies?.[SESSION_COOKIE];
  return typeof cookie === 'string' && cookie.length > 0 ? cookie : null;
}
