import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
} from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { canonicalUuid } from '@scn/proto';
import type { Request } from 'express';
import type { ActiveSession } from './auth.repository';
import { AuthException } from './auth.exception';
import { sessionOf } from './session.guard';

/** The path parameter that names the account in `/{uuid}` routes (docs/product/calls.md#market-and-account-calls, docs/product/calls.md#dashboard-calls). */
const ACCOUNT_PARAM = 'uuid';

/**
 * Whether `claimed` (from a path or a body, in any case) names the session's own account. Text
 * that is not a UUID names no account, so it is not the session's either.
 */
export function isOwnAccount(session: ActiveSession, claimed: unknown): boolean {
  return canonicalUuid(claimed) === session.account.uuid;
}

/** The session's account uuid, once the route's `:uuid` was checked against it. */
export function ownAccountOf(context: ExecutionContext): string {
  const session = sessionOf(context);
  const claimed = context.switchToHttp().getRequest<Request>().params[ACCOUNT_PARAM];
  if (!isOwnAccount(session, claimed)) throw new AuthException('access_denied');
  return session.account.uuid;
}

const ownAccountParam = createParamDecorator((_: unknown, context: ExecutionContext) =>
  ownAccountOf(context),
);

/**
 * The `:uuid` path parameter of a route behind SessionGuard: it must be the session's own
 * account (any case; 403 `access_denied` otherwise, malformed included), and the handler gets
 * that account's canonical uuid. Refused before the body or any other parameter is validated:
 * the check runs while the parameters are read, ahead of every pipe (the decorator spec pins it).
 */
export function OwnAccount(): ParameterDecorator {
  return (target, key, index) => {
    ownAccountParam()(target, key, index);
    // Documented as the plain path parameter `@Param('uuid')` would be.
    if (key !== undefined) {
      const descriptor = Object.getOwnPropertyDescriptor(target, key)!;
      ApiParam({ name: ACCOUNT_PARAM, required: true, type: String })(target, key, descriptor);
    }
  };
}

/**
 * The same check for a handler that needs no uuid (a refused legacy call): `:uuid` must be the
 * session's own account, 403 otherwise. Use after SessionGuard.
 */
@Injectable()
export class OwnsAccountGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    ownAccountOf(context);
    return true;
  }
}
