-- Hardening the public edges (issue 25).

-- Ledger entries get a random id of their own for callers: the bigserial keeps ordering and paging
-- inside the service, but one global sequence let an account count every other account's charges.
ALTER TABLE credit_ledger ADD COLUMN public_id text;
-- the append-only trigger refuses every UPDATE: this one backfill is the exception
ALTER TABLE credit_ledger DISABLE TRIGGER credit_ledger_no_change;
UPDATE credit_ledger SET public_id = 'led_' || replace(gen_random_uuid()::text, '-', '');
ALTER TABLE credit_ledger ENABLE TRIGGER credit_ledger_no_change;
ALTER TABLE credit_ledger
  ALTER COLUMN public_id SET DEFAULT 'led_' || replace(gen_random_uuid()::text, '-', ''),
  ALTER COLUMN public_id SET NOT NULL;
CREATE UNIQUE INDEX credit_ledger_public_id ON credit_ledger (public_id);

-- Clients no account approved (dynamic registrations and cached metadata documents) are capped,
-- oldest first: registration is open to anyone.
CREATE INDEX oauth_clients_created ON oauth_clients (created_at);

-- Why the account must replace its password (must_change_password): null for a temporary password
-- issued by the team, else the rule the password it signed in with breaks (rules added later).
ALTER TABLE accounts ADD COLUMN password_rule_problem text;
