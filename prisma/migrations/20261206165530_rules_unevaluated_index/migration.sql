-- bc:no-transaction
-- SPEC H2: the rules sweep finds pending requests whose rules have not run;
-- built concurrently, join_requests being the big live table.
DROP INDEX CONCURRENTLY IF EXISTS join_requests_rules_unevaluated_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS join_requests_rules_unevaluated_idx ON join_requests (created_at) WHERE (rules_evaluated_at IS NULL AND state = 'pending');
