import { Param, type PipeTransform } from '@nestjs/common';
import { canonicalUuid } from '@scn/proto';

/**
 * A UUID from the request in its lower-case canonical form (`uuidSchema` of @scn/proto); anything
 * else gets the caller's error. A pipe, so it runs after the guards and after the body is
 * validated: a request wrong in both ways still gets the body's 400, as before.
 */
export class UuidPipe implements PipeTransform<unknown, string> {
  constructor(private readonly invalid: () => Error) {}

  transform(value: unknown): string {
    const uuid = canonicalUuid(value);
    if (uuid === null) throw this.invalid();
    return uuid;
  }
}

/**
 * The `:name` path parameter as a canonical UUID. Text that is not a UUID cannot name the
 * resource, so it gets `invalid()`: the endpoint's own not-found. Ownership is not checked
 * here: the service's owner-scoped query is the check (inside its transaction, where the row
 * is locked), so a row of another account is that same not-found.
 */
export function UuidParam(name: string, invalid: () => Error): ParameterDecorator {
  return Param(name, new UuidPipe(invalid));
}
