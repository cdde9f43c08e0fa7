/**
 * A failed API call: the server's English `message`, its HTTP status (0: no answer, the network),
 * its `code` (`wallet.insufficient_balance`, docs/api.md "Error codes") and the other fields of
 * the body with the `Retry-After` seconds (`retryAfterSeconds`). Show it to a person through
 * `apiErrorMessage` / `useApiErrorMessage` (lib/api-error-message.ts), in their language.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
