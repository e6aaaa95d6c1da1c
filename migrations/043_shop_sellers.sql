-- Issue 42: per-seller cells in a rate shop. A batch item may also run one stay's offers by seller
-- (POST /v1/offers, the operation get_hotel_offers); `request` is that operation's input.
ALTER TABLE calendar_job_items DROP CONSTRAINT calendar_job_items_kind_check;
ALTER TABLE calendar_job_items ADD CONSTRAINT calendar_job_items_kind_check CHECK (kind IN ('calendar', 'compare', 'offers'));

-- The most a shop costs, stated when it is submitted: each calendar as POST /v1/calendar, each
-- stay of a per-seller shop as POST /v1/offers. Shops run before this were calendars only, at 5
-- credits each (the calendar's price then).
ALTER TABLE compset_shops ADD COLUMN credits_max integer;
UPDATE compset_shops SET credits_max = 5 * jsonb_array_length(properties) * jsonb_array_length(request -> 'los');
ALTER TABLE compset_shops ALTER COLUMN credits_max SET NOT NULL;
