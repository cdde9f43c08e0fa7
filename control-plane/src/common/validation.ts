import { firstIssueMessage } from '@scn/proto';
import { createZodValidationPipe } from 'nestjs-zod';
import { ZodError } from 'zod';
import { DomainException } from './domain.exception';

/** Validates every DTO-typed body, query and param against its zod contract from @scn/proto. */
export const ContractValidationPipe = createZodValidationPipe({
  createValidationException: (error: unknown) =>
    new DomainException(
      'invalid',
      error instanceof ZodError ? firstIssueMessage(error) : 'Invalid request',
    ),
});
