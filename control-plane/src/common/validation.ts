import { firstIssueMessage } from '@scn/proto';
import { createZodValidationPipe } from 'nestjs-zod';
import { ZodError } from 'zod';
import { DomainException } from './domain.exception';

/** Validates every DTO-typed body, query and param against its zod contract from @scn/proto. */
export const ContractValidationPipe = createZodValidationPipe({
  createValidationException: (error: unknown) => {
    if (!(error instanceof ZodError)) return new DomainException('invalid', 'Invalid request');
    // `common.invalid` with the field at fault, when the first problem is one field's.
    const field = error.issues[0]?.path.join('.');
    return new DomainException(
      'invalid',
      firstIssueMessage(error),
      undefined,
      field ? { field } : undefined,
    );
  },
});
