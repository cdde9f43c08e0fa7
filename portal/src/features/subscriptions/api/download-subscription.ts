import { SUBSCRIPTION_ROUTES } from '@scn/proto';
import { API_BASE } from '../../../config/env';
import { ApiError } from '../../../lib/api-client';
import { STORAGE_KEYS } from '../../../lib/storage';

/**
 * GET /api/clients/download-subscription/{uuid}/{fileName} (docs/product/calls.md#dashboard-calls): the file's text (base64
 * for group files, one link per line for raw files), not JSON, so it is fetched directly.
 */
export async function downloadSubscription(
  ownerUuid: string,
  fileName: string,
  signal?: AbortSignal,
): Promise<string> {
  const headers: Record<string, string> = { Accept: 'text/plain' };
  const token = localStorage.getItem(STORAGE_KEYS.token);
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${SUBSCRIPTION_ROUTES.download(ownerUuid, fileName)}`, {
      headers,
      credentials: 'include',
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('Failed to download the subscription file', 0);
  }
  if (!response.ok) {
    const payload = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError(
      payload?.message ?? 'Failed to download the subscription file',
      response.status,
    );
  }
  return response.text();
}
