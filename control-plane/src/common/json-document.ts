import { createHash } from 'node:crypto';
import type { Response } from 'express';

/**
 * A JSON response body serialized once, with its entity tag: for a response that many requests
 * share (a cached market page), so each of them costs a write, not a JSON.stringify and a hash.
 */
export class JsonDocument<T> {
  readonly json: string;
  /** The weak tag Express itself would compute for this body (`W/"<length>-<sha1>"`). */
  readonly etag: string;

  constructor(readonly value: T) {
    this.json = JSON.stringify(value);
    const hash = createHash('sha1').update(this.json).digest('base64').slice(0, 27);
    this.etag = `W/"${Buffer.byteLength(this.json).toString(16)}-${hash}"`;
  }

  /**
   * Sets the response's JSON type and entity tag and returns the body, for a controller to
   * return with `@Res({ passthrough: true })`: Nest sends a string as it is, and Express answers
   * 304 without the body when the request's If-None-Match names this tag.
   */
  sendWith(response: Response): string {
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('ETag', this.etag);
    return this.json;
  }
}
