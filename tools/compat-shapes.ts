/*
 * The compatible search API's response shapes where ours differ, for the engines of
 * compat-engines.ts: pure functions of our operation's answer. Each key comes from what that API's
 * own clients read (LangChain's SearchApi wrapper reads `jobs[].description`, `videos[].title` and
 * `.link`; its n8n example workflow splits `transcripts` and joins their `text`; its n8n YouTube
 * engines take video ids "from JSON responses in YouTube engine", i.e. `videos[].id`) or from its
 * recorded replies. A key we cannot state is left out, never filled with a made-up value;
 * docs/compatible-api.md lists them with the reason.
 */

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
/** Keys whose value is null or undefined are left out, as that API leaves out what a page does not state. */
const stated = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

/** A page's continuation token in that API's `pagination` object (absent on the last page). */
function withPagination(body: Json, token: unknown): Json {
  const { next_page_token: _t, ...rest } = body;
  return typeof token === 'string' && token ? { ...rest, pagination: { next_page_token: token } } : rest;
}

/** youtube, youtube_channel_videos: each video also carries its id as `id`. */
export function youtubeVideos(body: Json): Json {
  const videos = list(body.videos).map((v) => ({ id: v.video_id, ...v }));
  return withPagination({ ...body, videos }, body.next_page_token);
}

/** youtube_video: the video also carries its id as `id`. */
export function youtubeVideo(body: Json): Json {
  const video = body.video as Json | undefined;
  return video ? { ...body, video: { id: video.video_id, ...video } } : body;
}

/** youtube_transcripts: the timed segments as that API's `transcripts` (text, start, duration in seconds). */
export function youtubeTranscripts(body: Json): Json {
  const { segments, ...rest } = body;
  return { ...rest, transcripts: list(segments).map((s) => stated({ text: s.text, start: s.start_s, duration: s.duration_s })) };
}

/**
 * google_jobs: the cards as that API's `jobs`. A card states no description (the page shows it in a
 * detail pane for the selected card only), so `description` is absent.
 */
export function googleJobs(body: Json): Json {
  const { jobs_results, total: _total, ...rest } = body;
  const jobs = list(jobs_results).map((j, i) =>
    stated({
      position: i + 1,
      title: j.title,
      company_name: j.company,
      location: j.location,
      via: j.via,
      detected_extensions: Object.keys(stated({ posted_at: j.posted, schedule_type: j.employment_type })).length
        ? stated({ posted_at: j.posted, schedule_type: j.employment_type })
        : null,
      apply_links: list(j.apply_options).map((a) => stated({ link: a.link, source: a.source })),
    }),
  );
  return { ...rest, jobs };
}

/**
 * booking: the first OTA's result cards as that API's `properties`. The card's price is for the
 * whole stay it states (stay_text, e.g. "2 nights, 2 adults"): `price`/`extracted_price`; a nightly
 * price is not on the card, so `nightly_price` is absent. Taxes as the card states them.
 */
export function bookingProperties(body: Json): Json {
  const { results, query: _q, check_in, check_out, collection_id, observed_at, wire_bytes, ...rest } = body;
  const properties = list(results).map((r) => {
    const units = list(r.units);
    const unit = units[0];
    return stated({
      position: r.position,
      name: r.name,
      link: r.url,
      address: r.address || null,
      distance: r.distance || null,
      rating: r.review_score,
      rating_text: r.review_word || null,
      reviews: r.review_count,
      stars: r.star_rating,
      stay: r.stay_text || null,
      price: r.price_text || null,
      extracted_price: r.price,
      currency: r.currency,
      taxes_and_charges: r.taxes_text || null,
      extracted_taxes_and_charges: r.taxes,
      room_type: unit?.name ?? null,
      bed_configuration: (Array.isArray(unit?.details) ? (unit.details as unknown[]).map(String) : []).filter((d) => /\bbeds?\b/i.test(d)).join(', ') || null,
      has_free_cancellation: units.some((u) => u.free_cancellation === true) ? true : null,
      has_no_prepayment: units.some((u) => u.no_prepayment === true) ? true : null,
      provenance: r.provenance,
    });
  });
  return {
    search_metadata: { collection_id, observed_at, wire_bytes },
    search_information: stated({ check_in_date: check_in, check_out_date: check_out }),
    properties,
    ...rest,
  };
}
