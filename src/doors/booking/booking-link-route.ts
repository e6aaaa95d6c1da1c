/**
 * GET /v1/book/<id>?e=<expiry>&s=<signature>: the page a booking link opens. It posts the seller's
 * click-out form (its URL and post_data, as the booking options state them) from the person's own
 * browser, at once, with a button for a browser that runs no script. No key, no credits: the
 * signed link is the permission, and it expires (platform/booking-links.ts). 404 for a link that
 * was never made or was changed, 410 once expired.
 */
import { randomBytes } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { ServiceDeps } from '../../core/service-deps.js';
import { BOOKING_LINK_PATH, openBookingLink, type BookingForm } from '../../platform/booking-links.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string, nonce?: string, script?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem">${body}${script && nonce ? `<script nonce="${nonce}">${script}</script>` : ''}</body></html>`;
}

/** The form's fields, one hidden input per pair of the URL-encoded post_data. */
function formPage(form: BookingForm, expiresAt: Date, nonce: string): string {
  const fields = [...new URLSearchParams(form.post_data ?? '')].map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`).join('');
  const host = new URL(form.url).host;
  return page(
    `Continue to ${host}`,
    `<form id="book" method="POST" action="${escape(form.url)}">${fields}<p>Taking you to <strong>${escape(host)}</strong> to book…</p><button type="submit">Continue to ${escape(host)}</button></form><p style="color:#666">This link expires at ${expiresAt.toISOString()}.</p>`,
    nonce,
    "document.getElementById('book').submit();",
  );
}

function send(res: Response, status: number, html: string, csp: string): void {
  res.status(status).set({ 'content-security-policy': csp, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).type('html').send(html);
}

const BASE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'";

export function bookingLinkRouter(deps: ServiceDeps): Router {
  const router = Router();
  router.get(`${BOOKING_LINK_PATH}/:id`, async (req: Request, res: Response) => {
    const { e, s } = req.query;
    const opened = await openBookingLink(deps.sql, String(req.params.id), typeof e === 'string' ? e : '', typeof s === 'string' ? s : '');
    if (opened.status === 'invalid') return send(res, 404, page('Link not found', '<p>This booking link is not valid.</p>'), BASE_CSP);
    if (opened.status === 'expired')
      return send(res, 410, page('Link expired', '<p>This booking link has expired. Ask for the booking options again for a fresh one.</p>'), BASE_CSP);
    const nonce = randomBytes(16).toString('base64');
    // no form-action: the click-out redirects on to the seller, and browsers check form-action on every redirect of the post
    send(res, 200, formPage(opened.form, opened.expiresAt, nonce), `${BASE_CSP}; script-src 'nonce-${nonce}'`);
  });
  return router;
}
