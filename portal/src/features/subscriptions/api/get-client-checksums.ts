import { CHECKSUMS_TIMEOUT_MS, DOWNLOADS_ROUTES, type ClientChecksumsResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** GET /checksums/client (docs/product/calls.md#dashboard-calls), given up after 5 s (docs/product/constants.md#billing-and-the-economy). */
export async function getClientChecksums(): Promise<ClientChecksumsResponse> {
  const controller = new AbortController();
  const timer = window.setTimeout(() => controller.abort(), CHECKSUMS_TIMEOUT_MS);
  try {
    return await api.get<ClientChecksumsResponse>(DOWNLOADS_ROUTES.clientChecksums, {
      signal: controller.signal,
      fallbackMessage: 'Failed to load checksums',
    });
  } finally {
    window.clearTimeout(timer);
  }
}
