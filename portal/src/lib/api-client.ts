import { API_BASE } from '../config/env';
import { ApiError } from './api-error';
import { STORAGE_KEYS } from './storage';

export { ApiError };

/** The body's fields besides success, message and code, plus Retry-After when sent. */
function detailsOf(payload: Record<string, unknown> | null, response: Response) {
  const { success: _success, message: _message, code: _code, ...details } = payload ?? {};
  const retryAfter = Number(response.headers.get('Retry-After'));
  return retryAfter > 0 ? { ...details, retryAfterSeconds: retryAfter } : details;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** Message to use when the server gives none (the spec's fallbacks, e.g. 'Login failed'). */
  fallbackMessage?: string;
  /** Bearer token to send instead of the stored one (logout clears storage before calling). */
  token?: string | null;
  /** Extra request headers, e.g. `Idempotency-Key` on payment calls. */
  headers?: Record<string, string>;
}

/**
 * One call to the control plane. Sends the session cookie and, when stored, the bearer token
 * (docs/product/calls.md#market-and-account-calls). Resolves with the parsed JSON body; rejects with ApiError on any failure.
 */
export async function apiRequest<T>(
  method: Method,
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const token = options.token ?? localStorage.getItem(STORAGE_KEYS.token);
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      credentials: 'include',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    // The English of errors:network; apiErrorMessage shows the reader's own.
    throw new ApiError(
      options.fallbackMessage ?? 'Network error. Please check your connection.',
      0,
    );
  }

  const payload = (await response.json().catch(() => null)) as {
    success?: boolean;
    message?: string;
    code?: string;
  } | null;
  if (!response.ok || payload?.success === false) {
    throw new ApiError(
      payload?.message ?? options.fallbackMessage ?? `Request failed (${response.status})`,
      response.status,
      typeof payload?.code === 'string' ? payload.code : undefined,
      detailsOf(payload, response),
    );
  }
  return payload as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('POST', path, { ...options, body: body ?? {} }),
  patch: <T>(path: string, body: unknown, options?: RequestOptions) =>
    apiRequest<T>('PATCH', path, { ...options, body }),
  put: <T>(path: string, body: unknown, options?: RequestOptions) =>
    apiRequest<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, options),
};
