export default async function globalTeardown(): Promise<void> {
  await globalThis.__SCN_TEST_PG__?.stop();
}
