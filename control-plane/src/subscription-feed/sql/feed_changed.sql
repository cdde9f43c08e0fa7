-- What the subscription feed keeps in memory changed (docs/architecture.md#subscription-feed):
-- every replica LISTENs on scn_feed and drops what the payload names, so a cached feed never
-- outlives a commit that changes it. Payloads (NOTIFY folds equal ones within a transaction):
--   s:<subscription ids, comma-separated>  a subscription, its servers' order or its traffic
--   v:<server id>                           what a link is built from (or the plan that
--                                           reachability estimates belong to)
--   r                                       reachability estimates, any
--   *                                       everything (an account's email: premium servers)
-- Row triggers on tables written rarely; the statement triggers on the two tables that report
-- batches and the reachability job write in bulk, which name each subscription once per
-- statement (a payload holds at most 7,999 bytes: 200 ids of 37 bytes each).
-- Only the columns a feed takes count: a report's ping or uptime, or the feed's own record of
-- the client's network, notify nothing.
CREATE OR REPLACE FUNCTION feed_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text;
BEGIN
  IF TG_TABLE_NAME = 'subscriptions' THEN
    IF TG_OP = 'DELETE' THEN
      PERFORM pg_notify('scn_feed', 's:' || OLD.id);
    ELSIF TG_OP = 'INSERT' OR to_jsonb(OLD) - '{client_country,client_asn,client_seen_at}'::text[]
        IS DISTINCT FROM to_jsonb(NEW) - '{client_country,client_asn,client_seen_at}'::text[] THEN
      PERFORM pg_notify('scn_feed', 's:' || NEW.id);
    END IF;
  ELSIF TG_TABLE_NAME = 'subscription_servers' THEN
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('scn_feed', 's:' || OLD.subscription_id); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('scn_feed', 's:' || NEW.subscription_id); END IF;
  ELSIF TG_TABLE_NAME = 'servers' THEN
    -- An UPDATE reaches here only when a column a feed takes moved (the trigger's WHEN).
    PERFORM pg_notify('scn_feed', 'v:' || CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
  ELSIF TG_TABLE_NAME = 'accounts' THEN
    IF OLD.email IS DISTINCT FROM NEW.email THEN PERFORM pg_notify('scn_feed', '*'); END IF;
  ELSIF TG_TABLE_NAME = 'subscription_traffic_days' THEN
    IF TG_OP = 'DELETE' THEN
      FOR ids IN
        SELECT string_agg(id, ',') FROM (
          SELECT id, (row_number() OVER ()) / 200 AS chunk
          FROM (SELECT DISTINCT subscription_id::text AS id FROM gone) d) c
        GROUP BY chunk
      LOOP
        PERFORM pg_notify('scn_feed', 's:' || ids);
      END LOOP;
    ELSE
      FOR ids IN
        SELECT string_agg(id, ',') FROM (
          SELECT id, (row_number() OVER ()) / 200 AS chunk
          FROM (SELECT DISTINCT subscription_id::text AS id FROM changed) d) c
        GROUP BY chunk
      LOOP
        PERFORM pg_notify('scn_feed', 's:' || ids);
      END LOOP;
    END IF;
  ELSIF TG_TABLE_NAME = 'server_reachability' THEN
    IF TG_OP = 'DELETE' THEN
      IF EXISTS (SELECT 1 FROM gone) THEN PERFORM pg_notify('scn_feed', 'r'); END IF;
    ELSIF EXISTS (SELECT 1 FROM changed) THEN
      PERFORM pg_notify('scn_feed', 'r');
    END IF;
  END IF;
  RETURN NULL;
END
$$;
