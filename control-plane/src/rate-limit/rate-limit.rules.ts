/** A limit of `limit` hits per fixed window of `windowSeconds` for one bucket key. */
export interface RateLimitRule {
  bucket: string;
  limit: number;
  windowSeconds: number;
}

const MINUTE = 60;
const HOUR = 3600;

/**
 * Limits on the calls that can be abused to guess passwords or codes, or to send mail.
 * Each is counted per client IP and per target e-mail (spec: DEVELOPERS.md "Auth").
 */
export const RATE_LIMITS = {
  login: (ip: string, email: string): RateLimitRule[] => [
    { bucket: `login:ip:${ip}`, limit: 30, windowSeconds: 15 * MINUTE },
    { bucket: `login:email:${email}`, limit: 10, windowSeconds: 15 * MINUTE },
  ],
  register: (ip: string, email: string): RateLimitRule[] => [
    { bucket: `register:ip:${ip}`, limit: 20, windowSeconds: HOUR },
    { bucket: `register:email:${email}`, limit: 10, windowSeconds: HOUR },
  ],
  generateCode: (ip: string, email: string): RateLimitRule[] => [
    { bucket: `code:ip:${ip}`, limit: 20, windowSeconds: HOUR },
    { bucket: `code:email:${email}`, limit: 5, windowSeconds: HOUR },
  ],
  forgotPassword: (ip: string, email: string): RateLimitRule[] => [
    { bucket: `forgot:ip:${ip}`, limit: 20, windowSeconds: HOUR },
    { bucket: `forgot:email:${email}`, limit: 5, windowSeconds: HOUR },
  ],
  resetPassword: (ip: string, email: string): RateLimitRule[] => [
    { bucket: `reset:ip:${ip}`, limit: 30, windowSeconds: HOUR },
    { bucket: `reset:email:${email}`, limit: 10, windowSeconds: HOUR },
  ],
  contact: (ip: string): RateLimitRule[] => [
    { bucket: `contact:ip:${ip}`, limit: 5, windowSeconds: HOUR },
  ],
} as const;
