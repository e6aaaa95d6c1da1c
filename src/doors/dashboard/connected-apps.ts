import type { Request, RequestHandler, Response, Router } from 'express';
import type { ServiceDeps } from '../../core/service-deps.js';
import { AUTHORIZATION_PARAMS, checkAuthorizationRequest, clientRedirect, type AuthorizationRequest } from '../oauth/authorization-request.js';
import { issueCode } from '../oauth/codes.js';
import { approveGrant, connectedApps, recentAppCalls, revokeGrant } from '../../platform/oauth-store.js';
import { oauthUrls } from '../oauth/urls.js';
import type { DashboardAccount } from './accounts.js';
import { APP_CALL_ROWS, connectedAppsPage, consentPage } from './oauth-pages.js';
import { messagePage } from './pages.js';
import type { Session } from './sessions.js';

const AUTHORIZE_PATH = '/dashboard/oauth/authorize';

/** A sign-in (and every step after it) may return only to an authorization request of this dashboard. */
export function safeNext(raw: unknown): string | undefined {
  return typeof raw === 'string' && raw.startsWith(`${AUTHORIZE_PATH}?`) && !/[\\\s]/.test(raw) && raw.length <= 4000 ? raw : undefined;
}

/** The password page, carrying the authorization request that waits for it (if any). */
export function passwordStep(next: string | undefined): string {
  return next ? `/dashboard/password?next=${encodeURIComponent(next)}` : '/dashboard/password';
}

/** The authorization request's own URL, rebuilt from its parameters (a consent form's hidden fields). */
function authorizeUrlOf(source: Record<string, unknown>): string | undefined {
  const q = new URLSearchParams();
  for (const name of AUTHORIZATION_PARAMS) if (typeof source[name] === 'string' && source[name] !== '') q.set(name, source[name]);
  return safeNext(`${AUTHORIZE_PATH}?${q}`);
}

export interface DashboardKit {
  deps: ServiceDeps;
  csrf: RequestHandler;
  signedIn: (handler: (req: Request, res: Response, s: { session: Session; account: DashboardAccount }) => Promise<void>) => RequestHandler;
  send: (res: Response, status: number, page: string) => void;
  field: (req: Request, name: string) => string;
}

/**
 * The consent step of the OAuth authorization server and the list of connected apps. The
 * authorization endpoint lives under /dashboard so that the dashboard session (cookie path
 * /dashboard) identifies the user; every decision is a CSRF-protected POST.
 */
export function mountConnectedApps(r: Router, kit: DashboardKit): void {
  const { deps, send } = kit;
  const refuse = (res: Response, message: string) =>
    send(res, 400, messagePage('Cannot connect this app', message, { href: '/dashboard', label: 'Go to the dashboard' }));

  /** The consent page may send the browser on to the app's redirect URI after the form is posted. */
  const allowFormRedirect = (res: Response, request: AuthorizationRequest) => {
    const u = new URL(request.redirectUri);
    const target = u.protocol === 'http:' || u.protocol === 'https:' ? `${u.protocol}//${u.host}` : u.protocol;
    const csp = String(res.get('content-security-policy') ?? '').replace("form-action 'self'", `form-action 'self' ${target}`);
    res.set('content-security-policy', csp);
  };

  r.get('/oauth/authorize', async (req, res) => {
    const urls = oauthUrls(deps.config, req);
    const checked = await checkAuthorizationRequest(deps, urls, req.query);
    if (!checked.ok) return 'fatal' in checked ? refuse(res, checked.fatal) : res.redirect(303, checked.redirect);
    const session = res.locals.session as Session | null;
    // Sign-in and a required password change come first; each step carries this request on, and
    // the last one comes back here.
    const here = safeNext(req.originalUrl);
    if (!session?.account) return res.redirect(303, here ? `/dashboard/sign-in?next=${encodeURIComponent(here)}` : '/dashboard/sign-in');
    if (session.account.must_change_password) return res.redirect(303, passwordStep(here));
    const params: Record<string, string> = {};
    for (const name of AUTHORIZATION_PARAMS) if (typeof req.query[name] === 'string' && req.query[name] !== '') params[name] = req.query[name];
    allowFormRedirect(res, checked.request);
    send(res, 200, consentPage({ account: session.account, csrf: session.csrf, request: checked.request, params }));
  });

  // A session that ended (or must change its password) while the consent page was open goes through
  // those steps and back to the same request.
  const consentSigned: RequestHandler = (req, res, next) => {
    const account = (res.locals.session as Session | null)?.account;
    if (account && !account.must_change_password) return next();
    const here = authorizeUrlOf(req.body as Record<string, unknown>);
    if (!account) return res.redirect(303, here ? `/dashboard/sign-in?next=${encodeURIComponent(here)}` : '/dashboard/sign-in');
    res.redirect(303, passwordStep(here));
  };

  r.post(
    '/oauth/authorize',
    consentSigned,
    kit.csrf,
    kit.signedIn(async (req, res, { account }) => {
      const urls = oauthUrls(deps.config, req);
      const checked = await checkAuthorizationRequest(deps, urls, req.body as Record<string, unknown>);
      if (!checked.ok) return 'fatal' in checked ? refuse(res, checked.fatal) : res.redirect(303, checked.redirect);
      const q = checked.request;
      if (kit.field(req, 'decision') !== 'approve') {
        return res.redirect(
          303,
          clientRedirect(q.redirectUri, urls.issuer, { error: 'access_denied', error_description: 'the user denied the request', state: q.state }),
        );
      }
      const grantId = await approveGrant(deps.sql, { accountId: account.id, clientId: q.client.client_id, scope: q.scope });
      const code = await issueCode(deps.sql, {
        grantId,
        accountId: account.id,
        clientId: q.client.client_id,
        redirectUri: q.redirectUri,
        codeChallenge: q.codeChallenge,
        resource: q.resource,
        scope: q.scope,
      });
      res.redirect(303, clientRedirect(q.redirectUri, urls.issuer, { code, state: q.state }));
    }),
  );

  r.get(
    '/apps',
    kit.signedIn(async (req, res, { session, account }) => {
      const notice = req.query.notice === 'revoked' ? 'The app was disconnected: its tokens no longer work.' : undefined;
      const [apps, calls] = await Promise.all([connectedApps(deps.sql, account.id), recentAppCalls(deps.sql, account.id, APP_CALL_ROWS)]);
      send(res, 200, connectedAppsPage({ account, csrf: session.csrf, apps, calls, notice }));
    }),
  );

  r.post(
    '/apps/revoke',
    kit.csrf,
    kit.signedIn(async (req, res, { account }) => {
      await revokeGrant(deps.sql, account.id, kit.field(req, 'grant'));
      // the app's key row stops at once in this process too (see the key rotation)
      deps.platform.keys.clear();
      res.redirect(303, '/dashboard/apps?notice=revoked');
    }),
  );
}
