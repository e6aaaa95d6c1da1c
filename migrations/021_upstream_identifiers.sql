-- Build-time identifiers a source's requests depend on (issue 37): a persisted GraphQL query's hash
-- rotates with the site's releases. When a reply says the identifier it was sent is unknown, the
-- source finds the current one in the site's JS chunks and keeps it here, so that every process
-- sends it from then on (instead of the one built into the code). Owned by
-- src/platform/upstream-identifiers.ts. Nothing in it belongs to a caller: the identifiers are the
-- same for every visitor of the site.
CREATE TABLE upstream_identifiers (
  source text NOT NULL,
  -- the operation the identifier names (e.g. StaysSearch)
  name text NOT NULL,
  value text NOT NULL,
  -- the value it replaced (the one a reply refused)
  replaced text,
  found_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (source, name)
);
