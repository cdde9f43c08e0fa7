import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Server hosts in one canonical form: IPv6 without brackets and compressed, everything
 * lower-case (what `canonicalHost` of @scn/proto writes from now on, for reports and uploads).
 *
 * Manual servers used to store a bracketed IPv6 host (`[2001:db8::1]`, from the URL parser) and
 * agents could report one in either form, so links written from the column were either doubly
 * bracketed or not bracketed at all. A value PostgreSQL cannot read as an address stays as it
 * was: the link builder canonicalizes on the way out too, and a bad agent host is refused at its
 * next report. Data only, no schema change; nothing to undo (the old forms meant the same hosts).
 */
export class CanonicalServerHosts1764000001300 implements MigrationInterface {
  name = 'CanonicalServerHosts1764000001300';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DO $$
      DECLARE
        r record;
        canonical text;
      BEGIN
        FOR r IN SELECT id, host FROM servers
                  WHERE host IS NOT NULL AND (host LIKE '%:%' OR host LIKE '[%' OR host <> lower(host))
        LOOP
          canonical := lower(r.host);
          IF canonical LIKE '%:%' THEN
            BEGIN
              canonical := host(btrim(canonical, '[]')::inet);
            EXCEPTION WHEN invalid_text_representation THEN
              canonical := r.host;
            END;
          END IF;
          IF canonical <> r.host THEN
            UPDATE servers SET host = canonical WHERE id = r.id;
          END IF;
        END LOOP;
      END $$`);
  }

  public async down(): Promise<void> {
    // The old forms named the same hosts; there is nothing to restore.
  }
}
