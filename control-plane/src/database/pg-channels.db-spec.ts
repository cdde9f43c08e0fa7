import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { dataSourceOptions } from './data-source';
import { PgChannels } from './pg-channels';

let db: TestDatabase;
let dataSource: DataSource;
let channels: PgChannels;

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = await new DataSource(dataSourceOptions(db.url)).initialize();
  channels = new PgChannels(dataSource);
});
afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

async function until(predicate: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('PgChannels', () => {
  it("should deliver a notify to the channel's listener and not to another channel's", async () => {
    const heard: string[] = [];
    const elsewhere: string[] = [];
    const logger = new Logger('PgChannelsSpec');
    const listener = channels.listener(
      'scn_channels_spec',
      { notified: (payload) => heard.push(payload), reconnected: () => undefined },
      logger,
    );
    const other = channels.listener(
      'scn_channels_spec_other',
      { notified: (payload) => elsewhere.push(payload), reconnected: () => undefined },
      logger,
    );
    await Promise.all([listener.start(), other.start()]);
    try {
      await channels.notify('scn_channels_spec', '{"reason":"added"}');
      await until(() => heard.length === 1);
      expect(heard).toEqual(['{"reason":"added"}']);
      expect(elsewhere).toEqual([]);
    } finally {
      await Promise.all([listener.stop(), other.stop()]);
    }
  });
});
