import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
} from '@nestjs/common';
import type { Request } from 'express';
import type { ActiveSession } from './auth.repository';
import { AuthException } from './auth.exception';
import { sessionTokenOf } from './session-cookie';
import { SessionService } from './session.service';

type AuthenticatedRequest = Request & { authSession?: ActiveSession };

/** Requires a live session (bearer token or cookie); 401 otherwise. */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(private readonly sessions: SessionService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = sessionTokenOf(request);
    if (!token) throw new AuthException('not_logged_in');
    const session = await this.sessions.authenticate(token);
    if (!session) throw new AuthException('session_invalid');
    request.authSession = session;
    return true;
  }
}

/** The session that SessionGuard authenticated. */
export const CurrentSession = createParamDecorator(
  (_: unknown, context: ExecutionContext): ActiveSession => sessionOf(context),
);

/** The session that SessionGuard authenticated; 401 on a route it did not guard. */
export function sessionOf(context: ExecutionContext): ActiveSession {
  const session = context.switchToHttp().getRequest<AuthenticatedRequest>().authSession;
  if (!session) throw new AuthException('not_logged_in');
  return session;
}
