-- MCP tasks (the io.modelcontextprotocol/tasks extension): a tool call the server chose to run
-- asynchronously. The row and its pg-boss queue entry are written in one transaction before the
-- CreateTaskResult is answered; the worker commits the result, the charge and the history row of
-- the call together. The task id is the caller's bearer handle: random, and every read is scoped
-- to the key that made the call (and its account).
CREATE TABLE mcp_tasks (
  id               text PRIMARY KEY,
  account_id       text NOT NULL REFERENCES accounts(id),
  key_id           text NOT NULL REFERENCES api_keys(id),
  -- the call's id: its request-history row, its ledger charge and its collection key
  request_id       text NOT NULL UNIQUE,
  tool             text NOT NULL,
  arguments        jsonb NOT NULL,
  -- who called, as authenticated then (plan, rate limit, connected app): the worker calls as them
  caller           jsonb NOT NULL,
  queue_job_id     uuid NOT NULL,
  status           text NOT NULL DEFAULT 'working' CHECK (status IN ('working', 'completed', 'failed', 'cancelled')),
  status_message   text,
  -- completed: the CallToolResult, exactly as the synchronous call answers it
  result           jsonb,
  -- failed: the JSON-RPC error {code, message}
  error            jsonb,
  attempts         integer NOT NULL DEFAULT 0,
  poll_interval_ms integer NOT NULL,
  ttl_ms           bigint NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mcp_tasks_account_key ON mcp_tasks (account_id, key_id, created_at DESC);
CREATE INDEX mcp_tasks_expiry ON mcp_tasks (created_at);
