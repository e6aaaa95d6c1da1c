import type { Request, RequestHandler, Response, Router } from 'express';
import type { AppDeps } from '../deps.js';
import { AUTHORIZATION_PARAMS, checkAuthorizationRequest, clientRedirect, type AuthorizationRequest } from '../oauth/authorization-request.js';
import { issueCode } from '../oauth/codes.js';
import { approveGrant, connectedApps, recentAppCalls, revokeGrant } from '../oauth/grants.js';
import { oauthUrls } from '../oauth/urls.js';
import type { DashboardAccount } from './accounts.js';
import { APP_CALL_ROWS, connectedAppsPage, consentPage } from './oauth-pages.js';
import { messagePage } from './pages.js';
import type { Session } from './sessions.js';

export const AUTHORIZE_PATH = '/dashboard/oauth/authorize';

/** A sign-in may return only to an authorization request of this dashboard. */
export function safeNext(raw: unknown): string | undefined {
  return typeof raw === 'string' && raw.startsWith(`${AUTHORIZE_PATH}?`) && !/[\\\s]/.test(raw) && raw.length <= 4000 ? raw : undefined;
}

export interface DashboardKit {
  deps: AppDeps;
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
    const checked = await checkAuthorizationRequest(deps, urls, req.query as Record<string, unknown>);
    if (!checked.ok) return 'fatal' in checked ? refuse(res, checked.fatal) : res.redirect(303, checked.redirect);
    const session = res.locals.session as Session | null;
    if (!session?.account) return res.redirect(303, `/dashboard/sign-in?next=${encodeURIComponent(req.originalUrl)}`);
    // A temporary password is replaced first; the app's connection is then started again.
    if (session.account.must_change_password) return res.redirect(303, '/dashboard/password');
    const params: Record<string, string> = {};
    for (const name of AUTHORIZATION_PARAMS) if (typeof req.query[name] === 'string' && req.query[name] !== '') params[name] = req.query[name] as string;
    allowFormRedirect(res, checked.request);
    send(res, 200, consentPage({ account: session.account, csrf: session.csrf, request: checked.request, params }));
  });

  r.post(
    '/oauth/authorize',
    kit.csrf,
    kit.signedIn(async (req, res, { account }) => {
      const urls = oauthUrls(deps.config, req);
      const checked = await checkAuthorizationRequest(deps, urls, req.body as Record<string, unknown>);
      if (!checked.ok) return 'fatal' in checked ? refuse(res, checked.fatal) : res.redirect(303, checked.redirect);
      const q = checked.request;
      if (kit.field(req, 'decision') !== 'approve') {
        return res.redirect(303, clientRedirect(q.redirectUri, urls.issuer, { error: 'access_denied', error_description: 'the user denied the request', state: q.state }));
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
      res.redirect(303, '/dashboard/apps?notice=revoked');
    }),
  );
}
