-- Anti-bot clearance shared by every process (issue 37): when the browser path clears a script
-- challenge (AWS WAF, Cloudflare, Akamai, Imperva), the anonymous clearance cookies the wall names
-- are kept here with the user agent and egress they are bound to, so that plain requests of any
-- process use them until a reply is a challenge again. Owned by src/platform/wall-clearances.ts.
-- Never a session, personalisation or account cookie: src/config/walls.ts lists what is kept.
CREATE TABLE wall_clearances (
  source text NOT NULL,
  -- the egress the clearance was earned through ('direct'): a clearance is tied to its client's address
  egress text NOT NULL,
  -- the clearance now held (null before the first clear)
  wall text,
  user_agent text,
  cookies jsonb,
  obtained_at timestamptz,
  expires_at timestamptz,
  -- bumped by every clear, so that a process reporting a dead clearance names which one it saw
  generation integer NOT NULL DEFAULT 0,
  -- when a reply showed this clearance refused (it is not used after)
  refused_at timestamptz,
  -- the re-clear under way: one process's browser visit, the others wait for it (woken by NOTIFY)
  claim text,
  claim_until timestamptz,
  PRIMARY KEY (source, egress)
);

-- What the upstream paths did per source and minute, every process together (GET /v1/sources/status):
-- browser visits, plain calls answered on a kept clearance, re-clears, identifier repairs, drift verdicts.
-- Written beside source_outcomes by the same flush; pruned with it.
CREATE TABLE source_events (
  source text NOT NULL,
  minute timestamptz NOT NULL,
  event  text NOT NULL CHECK (event IN ('browser_visit', 'plain_on_clearance', 'reclear', 'identifier_repair', 'drift')),
  count  integer NOT NULL,
  PRIMARY KEY (source, minute, event)
);
CREATE INDEX source_events_minute ON source_events (minute);
