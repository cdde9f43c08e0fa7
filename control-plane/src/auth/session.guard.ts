import {
  applyDecorators,
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { UserType } from '@scn/proto';
import type { Request } from 'express';
import type { DomainException } from '../common/domain.exception';
import type { ActiveSession } from './auth.repository';
import { AuthException } from './auth.exception';
import { sessionTokenOf } from './session-cookie';
import { SessionService } from './session.service';

type AuthenticatedRequest = Request & { authSession?: ActiveSession };

/** Which account type a route is for, and how it refuses the other (`ForAccountType`). */
interface AccountTypeRule {
  type: UserType;
  refusal: () => DomainException;
}

const ACCOUNT_TYPE = 'scn:account-type';

/**
 * Requires a live session (bearer token or cookie); 401 otherwise. On a route (or controller)
 * marked `ForAccountType`, the session's account must also be of that type: 403 otherwise.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly sessions: SessionService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // Declared on the controller and again by a route's ForAccountType: authenticate once.
    if (!request.authSession) {
      const token = sessionTokenOf(request);
      if (!token) throw new AuthException('not_logged_in');
      const session = await this.sessions.authenticate(token);
      if (!session) throw new AuthException('session_invalid');
      request.authSession = session;
    }
    const rule = this.reflector.getAllAndOverride<AccountTypeRule | undefined>(ACCOUNT_TYPE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (rule && request.authSession.account.userType !== rule.type) throw rule.refusal();
    return true;
  }
}

const REFUSALS: Record<UserType, () => DomainException> = {
  client: () => new AuthException('clients_only'),
  node: () => new AuthException('nodes_only'),
};

/**
 * The route, or every route of the controller, is for accounts of `type` only (docs/api.md:
 * "the other account type's call: 403"). Requires a session (it applies SessionGuard) and
 * refuses the other type with 403, `refusal` or `AuthException` `clients_only`/`nodes_only`,
 * before any parameter is read: so before the `{uuid}` owner check and the body's validation.
 * A route's declaration overrides its controller's.
 */
export function ForAccountType(
  type: UserType,
  refusal: () => DomainException = REFUSALS[type],
): ClassDecorator & MethodDecorator {
  const rule: AccountTypeRule = { type, refusal };
  return applyDecorators(SetMetadata(ACCOUNT_TYPE, rule), UseGuards(SessionGuard));
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
