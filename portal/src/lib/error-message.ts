/**
 * A failure's own message (an ApiError's is the server's words, docs/api.md), or `fallback`
 * when it has none: a thrown non-Error, or an Error without text.
 */
export function messageOf(error: unknown): string | null;
export function messageOf(error: unknown, fallback: string): string;
export function messageOf(error: unknown, fallback: string | null = null): string | null {
  return error instanceof Error && error.message ? error.message : fallback;
}
