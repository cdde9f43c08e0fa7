import { TEMPLATE_ENV, dropTemplateDatabase } from './test-database';

export default async function globalTeardown(): Promise<void> {
  const template = process.env[TEMPLATE_ENV];
  if (template) {
    delete process.env[TEMPLATE_ENV];
    await dropTemplateDatabase(template);
  }
  await globalThis.__SCN_TEST_PG__?.stop();
}
