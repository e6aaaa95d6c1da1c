-- Booking links (issue 38): a booking option whose seller wants a POST (the flight metasearch's
-- click-out form) gets a short-lived GET link on this service that answers a self-submitting form
-- to it. Owned by src/platform/booking-links.ts.
CREATE TABLE booking_links (
  -- random, 128 bits (base64url); the link also carries its expiry and an HMAC of both
  id text PRIMARY KEY,
  -- the account whose call minted the link (its data is the upstream's public click-out form)
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  target_url text NOT NULL,
  post_data text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX booking_links_expires ON booking_links (expires_at);

-- Keys the service signs its own links with, made at first use and shared by every process.
CREATE TABLE signing_keys (
  name text PRIMARY KEY,
  secret bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
