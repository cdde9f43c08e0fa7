-- A new server gets its client set (server_client_sets: the version the nodes follow), in the
-- statement that inserts it (trigger server_client_sets_created).
CREATE OR REPLACE FUNCTION server_client_sets_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO server_client_sets (server_id) SELECT id FROM new_rows;
  RETURN NULL;
END $$;
