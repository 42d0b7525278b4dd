-- SPEC G3: discovery knows a machine by its system UUID, compared
-- case-insensitively. Entries are stored lowercase (the upsert has always
-- written them so; older imports and direct writes may not have), so the join's
-- lowercase UUID key finds its entry through the (site_id, system_uuid) key.

-- Case variants of one UUID in one site become one entry: the lowercase one if
-- there is one, else the oldest id. It keeps every MAC any variant listed (each
-- was trusted), none if a variant listed none (that one matched by UUID alone),
-- and its own assigned pool, else a variant's.
WITH ranked AS (
  SELECT id, site_id, lower(btrim(system_uuid)) AS uuid_key, mac_addresses, assigned_pool_id,
    row_number() OVER (PARTITION BY site_id, lower(btrim(system_uuid)) ORDER BY (system_uuid = lower(btrim(system_uuid))) DESC, id) AS rank
  FROM discovered_machines
), groups AS (
  SELECT site_id, uuid_key,
    CASE WHEN bool_or(coalesce(cardinality(mac_addresses), 0) = 0) THEN '{}'::text[]
      ELSE ARRAY(SELECT DISTINCT mac FROM ranked AS r2, unnest(r2.mac_addresses) AS mac
                 WHERE r2.site_id = ranked.site_id AND r2.uuid_key = ranked.uuid_key ORDER BY mac) END AS macs,
    (array_agg(assigned_pool_id ORDER BY rank) FILTER (WHERE assigned_pool_id IS NOT NULL))[1] AS pool_id
  FROM ranked
  GROUP BY site_id, uuid_key
  HAVING count(*) > 1
)
UPDATE discovered_machines AS d
SET mac_addresses = groups.macs, assigned_pool_id = groups.pool_id
FROM ranked JOIN groups USING (site_id, uuid_key)
WHERE ranked.rank = 1 AND d.id = ranked.id;

DELETE FROM discovered_machines AS d
USING (
  SELECT id, row_number() OVER (PARTITION BY site_id, lower(btrim(system_uuid)) ORDER BY (system_uuid = lower(btrim(system_uuid))) DESC, id) AS rank
  FROM discovered_machines
) AS ranked
WHERE ranked.rank > 1 AND d.id = ranked.id;

UPDATE discovered_machines SET system_uuid = lower(btrim(system_uuid)) WHERE system_uuid <> lower(btrim(system_uuid));

-- Whatever writes an entry, it stays comparable.
ALTER TABLE "discovered_machines" ADD CONSTRAINT "discovered_machines_system_uuid_lowercase" CHECK (system_uuid = lower(btrim(system_uuid)));

-- No statement matches by MAC alone any more: the discovery match reaches its
-- one entry by UUID, and discovery/list's MAC prefix search never used it.
DROP INDEX IF EXISTS "discovered_machines_mac_addresses_idx";
