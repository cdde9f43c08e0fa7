import type { NestExpressApplication } from '@nestjs/platform-express';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { AppOptions } from '../../src/app.module';
import { createApp } from '../../src/bootstrap';
import { type AppConfig, loadConfig } from '../../src/config/app-config';
import { SmtpCapture } from './smtp-capture';
import { createTestDatabase, openTestDatabase, type TestDatabase } from './test-database';

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  db: TestDatabase;
  smtp: SmtpCapture;
  http: () => ReturnType<typeof request>;
  close(): Promise<void>;
}

/**
 * The real application on a fresh database, with a real SMTP server on loopback. With
 * `env.DATABASE_URL` it runs on that database instead (migrated, not dropped at close).
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: AppOptions = {},
): Promise<TestApp> {
  const db = env.DATABASE_URL
    ? await openTestDatabase(env.DATABASE_URL)
    : await createTestDatabase();
  const smtp = await SmtpCapture.start();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: db.url,
    SMTP_URL: smtp.url,
    SUPPORT_EMAIL: 'support@scn.test',
    MAIL_FROM: 'SCN <no-reply@scn.test>',
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'scn-test-data-')),
    GRPC_PORT: '0',
    GRPC_HOST: '127.0.0.1',
    ...env,
  });
  const app = await createApp(config, db.url, options);
  await app.init();
  const server = app.getHttpServer();
  return {
    app,
    config,
    db,
    smtp,
    http: () => request(server),
    async close() {
      await app.close();
      await smtp.stop();
      await db.drop();
    },
  };
}

let ipCounter = 0;
/** A distinct client address per test (trusted via X-Forwarded-For from loopback), so per-IP limits do not collide. */
export function freshIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter % 250}`;
}
