import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { ServiceDeps } from '../../core/service-deps.js';
import { accountForSignIn, changePassword, normalizeEmail, type DashboardAccount } from './accounts.js';
import { passwordHashOf, requirePasswordChange } from '../../platform/accounts.js';
import { createAccountKey, liveKeys, rotateAccountKey, type KeyOutcome } from './api-key.js';
import { mountConnectedApps, passwordStep, safeNext } from './connected-apps.js';
import { recentJobs } from './jobs.js';
import { KeyFlashes, type KeyFlash } from './key-flash.js';
import { mountSources } from './sources.js';
import { COPY_SCRIPT, COPY_SCRIPT_PATH } from './copy-button.js';
import { mountWatches } from './watches.js';
import { mountCompsets } from './compsets.js';
import { mountParity } from './parity.js';
import { LEDGER_ROWS, apiPage, jobsPage, messagePage, passwordPage, rotateConfirmPage, signInPage, usagePage } from './pages.js';
import { newPasswordProblem, verifyPassword } from './password.js';
import { passwordRuleProblem } from './password-rules.js';
import { SESSION_COOKIE, clearedCookie, createSession, csrfMatches, destroySession, readCookie, readSession, sessionCookie, type Session } from './sessions.js';
import { attemptSucceeded, beginAttempt } from '../../platform/sign-in-attempts.js';
import { DASHBOARD_PERIODS, accountUsage, callerUsage, isDashboardPeriod, type DashboardPeriod } from './usage.js';
import { appsByKey } from '../../platform/oauth-store.js';
import { badText } from '../../core/validation.js';
import { baseUrl } from '../oauth/urls.js';
import { isObject } from '../../domain/json.js';
import { DependencyDown, toApiError } from '../../domain/errors.js';

export interface DashboardOptions {
  /** Express `trust proxy` for the dashboard (hops, addresses, `loopback`, true): makes `req.secure` and `req.ip` follow X-Forwarded-*. */
  trustProxy?: boolean | number | string;
}

const SECURITY_HEADERS: Record<string, string> = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

const PAGES = { signIn: '/dashboard/sign-in', password: '/dashboard/password', home: '/dashboard/api' };

interface Signed {
  session: Session;
  account: DashboardAccount;
}

const sessionOf = (res: Response) => res.locals.session as Session | null;
/** A form field as text; one PostgreSQL could not take (a NUL character) counts as not filled in. */
const field = (req: Request, name: string) => {
  const v = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' && !badText(v) ? v : '';
};
const send = (res: Response, status: number, page: string) => void res.status(status).type('html').send(page);
const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** `TRUST_PROXY` when the configuration has it; the dashboard does not read the environment itself. */
function trustSetting(deps: ServiceDeps, opts: DashboardOptions): boolean | number | string | undefined {
  const raw = opts.trustProxy ?? deps.config.TRUST_PROXY;
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (typeof raw === 'string' && /^\d+$/.test(raw)) return Number(raw);
  return raw;
}

/**
 * The browser dashboard under `/dashboard` (and `/` redirecting to it), as a sub-application so
 * that its proxy trust applies to its own cookies only. Authentication is the session cookie
 * alone: an API key never opens it, and the cookie (Path=/dashboard) never reaches `/v1/*`.
 */
export function dashboardRouter(deps: ServiceDeps, opts: DashboardOptions = {}): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  const trust = trustSetting(deps, opts);
  if (trust !== undefined) app.set('trust proxy', trust);
  const { sql } = deps;

  app.get('/', (_req, res) => res.redirect(302, '/dashboard'));
  const r = express.Router();
  app.use('/dashboard', r);

  r.use((_req, res, next) => {
    res.set(SECURITY_HEADERS);
    next();
  });
  r.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 }));
  // a POST without a form (no body, another content type) is an empty form: every field is then missing, never a TypeError
  r.use((req, _res, next) => {
    if (!isObject(req.body)) req.body = {};
    next();
  });
  r.use(async (req, res, next) => {
    res.locals.session = await readSession(sql, readCookie(req.headers.cookie, SESSION_COOKIE));
    next();
  });

  const startSession = async (req: Request, res: Response, accountId: string | null) => {
    const s = await createSession(sql, accountId);
    res.append('set-cookie', sessionCookie(s.token, { secure: req.secure, maxAgeS: s.maxAgeS }));
    return s;
  };

  /**
   * Every form carries the session's synchronizer token; a missing or foreign one is refused. A
   * form that carried an app's authorization request links back to it, so the connection survives.
   */
  const csrf: RequestHandler = (req, res, next) => {
    if (csrfMatches(sessionOf(res), field(req, '_csrf'))) return next();
    const waiting = safeNext(field(req, 'next'));
    const back = waiting ? { href: waiting, label: 'Continue connecting the app' } : { href: PAGES.signIn, label: 'Back to sign-in' };
    send(
      res,
      403,
      messagePage('Form expired', 'This form is no longer valid (expired session or missing security token). Reload the page and try again.', back),
    );
  };

  /** Wraps a signed-in handler; until the temporary password is replaced only the password page opens. */
  const signedIn =
    (handler: (req: Request, res: Response, s: Signed) => void | Promise<void>, opts2: { passwordPage?: boolean } = {}): RequestHandler =>
    async (req, res) => {
      const session = sessionOf(res);
      if (!session?.account) return res.redirect(303, PAGES.signIn);
      if (session.account.must_change_password && !opts2.passwordPage) return res.redirect(303, PAGES.password);
      await handler(req, res, { session, account: session.account });
    };

  r.get(
    '/',
    signedIn((_req, res) => res.redirect(303, PAGES.home)),
  );

  r.get('/sign-in', async (req, res) => {
    let session = sessionOf(res);
    const next = safeNext(req.query.next);
    if (session?.account) return res.redirect(303, session.account.must_change_password ? passwordStep(next) : (next ?? PAGES.home));
    session ??= await startSession(req, res, null);
    send(res, 200, signInPage({ csrf: session.csrf, next }));
  });

  r.post('/sign-in', csrf, async (req, res) => {
    const session = sessionOf(res)!;
    const email = normalizeEmail(field(req, 'email'));
    const password = field(req, 'password');
    // An OAuth authorization request waiting for this sign-in.
    const next = safeNext(field(req, 'next'));
    if (!email || !password) return send(res, 400, signInPage({ csrf: session.csrf, email, next, error: 'Enter your email and password.' }));
    const attempt = await beginAttempt(sql, email, clientIp(req));
    if (!attempt.allowed) {
      res.set('retry-after', String(attempt.retryAfterS));
      const minutes = Math.ceil(attempt.retryAfterS / 60);
      return send(
        res,
        429,
        signInPage({ csrf: session.csrf, email, next, error: `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` }),
      );
    }
    const account = await accountForSignIn(sql, email);
    if (!(await verifyPassword(password, account?.password_hash ?? null)) || !account) {
      return send(res, 401, signInPage({ csrf: session.csrf, email, next, error: 'Wrong email or password.' }));
    }
    await attemptSucceeded(sql, attempt.id);
    // A password chosen before today's rules is checked now, the one moment it is at hand.
    const broken = account.must_change_password ? null : passwordRuleProblem(password, account.email);
    if (broken) await requirePasswordChange(sql, account.id, broken);
    // A fresh session id at sign-in: a token planted before it is worth nothing after.
    await destroySession(sql, session.token);
    await startSession(req, res, account.id);
    res.redirect(303, account.must_change_password || broken ? passwordStep(next) : (next ?? PAGES.home));
  });

  r.post('/sign-out', csrf, async (req, res) => {
    await destroySession(sql, sessionOf(res)!.token);
    res.append('set-cookie', clearedCookie(req.secure));
    res.redirect(303, PAGES.signIn);
  });

  r.get(
    '/password',
    signedIn((req, res, s) => send(res, 200, passwordPage({ account: s.account, csrf: s.session.csrf, next: safeNext(req.query.next) })), {
      passwordPage: true,
    }),
  );

  r.post(
    '/password',
    csrf,
    signedIn(
      async (req, res, { session, account }) => {
        // An OAuth authorization request waiting for this step.
        const waiting = safeNext(field(req, 'next'));
        const again = (status: number, error: string) => send(res, status, passwordPage({ account, csrf: session.csrf, error, next: waiting }));
        const current = field(req, 'current');
        const next = field(req, 'new_password');
        // The current password is a guess like any other: same limits as the sign-in form.
        const attempt = await beginAttempt(sql, account.email, clientIp(req));
        if (!attempt.allowed) return again(429, 'Too many wrong passwords. Try again later.');
        if (!(await verifyPassword(current, await passwordHashOf(sql, account.id)))) {
          return again(400, account.must_change_password ? 'The temporary password is wrong.' : 'The current password is wrong.');
        }
        await attemptSucceeded(sql, attempt.id);
        const problem = newPasswordProblem({ next, confirm: field(req, 'confirm'), current, email: account.email });
        if (problem) return again(400, problem);
        await changePassword(sql, account.id, next);
        await startSession(req, res, account.id);
        res.redirect(303, waiting ?? `${PAGES.home}?notice=password`);
      },
      { passwordPage: true },
    ),
  );

  const renderKeys = async (req: Request, res: Response, s: Signed, outcome?: KeyOutcome, rotated = false) => {
    const keys = await liveKeys(sql, s.account.id);
    const notice = req.query.notice === 'password' ? 'Your password has been saved.' : undefined;
    const page = apiPage({
      account: s.account,
      csrf: s.session.csrf,
      keys,
      baseUrl: baseUrl(deps.config, req),
      notice: outcome ? undefined : notice,
      created: outcome?.ok ? { key: outcome.key, rotated } : undefined,
      error: outcome && !outcome.ok ? outcome.reason : undefined,
    });
    // the new key's copy button is the only script of the dashboard, served from here
    if (outcome?.ok) res.set('content-security-policy', `${SECURITY_HEADERS['content-security-policy']}; script-src 'self'`);
    send(res, 200, page);
  };

  // POST → 303 → GET: a reload shows the page again and never repeats a key action. The new key
  // is in that one GET response only (no-store), never in a redirect target or the database.
  const flashes = new KeyFlashes();
  const afterKeyAction = (res: Response, s: Signed, flash: KeyFlash) => {
    flashes.put(s.session.token, flash);
    res.redirect(303, PAGES.home);
  };
  r.get(
    '/api',
    signedIn((req, res, s) => {
      const flash = flashes.take(s.session.token);
      return renderKeys(req, res, s, flash?.outcome, flash?.rotated);
    }),
  );
  r.post(
    '/api/key',
    csrf,
    signedIn(async (_req, res, s) => afterKeyAction(res, s, { outcome: await createAccountKey(sql, s.account), rotated: false })),
  );
  // Rotation stops the current key at once: a page of its own asks first.
  r.get(
    '/api/rotate',
    signedIn(async (req, res, s) => {
      const key = (await liveKeys(sql, s.account.id)).find((k) => k.name === req.query.name);
      if (!key) return afterKeyAction(res, s, { outcome: { ok: false, reason: 'No such key on this account.' }, rotated: true });
      send(res, 200, rotateConfirmPage({ account: s.account, csrf: s.session.csrf, key }));
    }),
  );
  r.post(
    '/api/rotate',
    csrf,
    signedIn(async (req, res, s) => {
      const outcome = await rotateAccountKey(sql, s.account.id, field(req, 'name'));
      // this process refuses the old key from now on; the others within KEY_CACHE_TTL_MS (their notification, or its expiry)
      if (outcome.ok) deps.platform.keys.clear();
      return afterKeyAction(res, s, { outcome, rotated: true });
    }),
  );

  r.get(
    '/usage',
    signedIn(async (req, res, { session, account }) => {
      const asked = req.query.period ?? '30d';
      if (!isDashboardPeriod(asked)) {
        const known = Object.keys(DASHBOARD_PERIODS).join(', ');
        return send(res, 400, messagePage('Unknown period', `Usage is shown for ${known}.`, { href: '/dashboard/usage', label: 'Show the last 30 days' }));
      }
      const period: DashboardPeriod = asked;
      const [usage, apps, balance, ledger] = await Promise.all([
        accountUsage(sql, account.id, period),
        appsByKey(sql, account.id),
        deps.credits.balance(account.id, account.plan),
        deps.credits.ledger(account.id, { limit: LEDGER_ROWS }).then((rows) => rows ?? []),
      ]);
      const rows = ledger.map((l) => ({ id: l.id, kind: l.kind, amount: l.amount, request_id: l.request_id, note: l.note, created_at: l.created_at }));
      send(res, 200, usagePage({ account, csrf: session.csrf, usage, callers: callerUsage(usage, apps), balance, ledger: rows }));
    }),
  );

  r.get(
    '/jobs',
    signedIn(async (_req, res, { session, account }) => send(res, 200, jobsPage({ account, csrf: session.csrf, jobs: await recentJobs(sql, account.id) }))),
  );

  mountConnectedApps(r, { deps, csrf, signedIn: (handler) => signedIn(handler), send, field });
  mountSources(r, { deps, signedIn: (handler) => signedIn(handler), send });
  mountWatches(r, { deps, csrf, signedIn: (handler) => signedIn(handler), send, field });
  mountCompsets(r, { deps, signedIn: (handler) => signedIn(handler), send });
  mountParity(r, { deps, signedIn: (handler) => signedIn(handler), send });
  r.get(
    COPY_SCRIPT_PATH.replace('/dashboard', ''),
    (_req, res) => void res.type('text/javascript').set('cache-control', 'public, max-age=3600').send(COPY_SCRIPT),
  );

  r.use((_req, res) =>
    send(res, 404, messagePage('Page not found', 'There is no dashboard page at this address.', { href: '/dashboard', label: 'Go to the dashboard' })),
  );
  r.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const e = err as { type?: string; status?: number };
    if (e?.type === 'entity.too.large' || e?.type === 'entity.parse.failed' || e?.type === 'parameters.too.many') {
      return send(
        res,
        e.status ?? 400,
        messagePage('Form not accepted', 'The form could not be read. Reload the page and try again.', { href: '/dashboard', label: 'Back' }),
      );
    }
    const api = toApiError(err);
    // a path that is not valid percent-encoding (the router's URIError), or another client error of the HTTP layer
    if (api.status >= 400 && api.status < 500) {
      return send(
        res,
        400,
        messagePage('Address not understood', 'This address or form could not be read. Check the link and try again.', {
          href: '/dashboard',
          label: 'Go to the dashboard',
        }),
      );
    }
    if (api instanceof DependencyDown) {
      res.setHeader('retry-after', '5');
      return send(
        res,
        503,
        messagePage('Temporarily unavailable', 'The service cannot reach its database right now. Try again in a few seconds.', {
          href: '/dashboard',
          label: 'Try again',
        }),
      );
    }
    deps.log.error({ err, requestId: req.id }, 'dashboard error');
    send(
      res,
      500,
      messagePage('Something went wrong', `The page could not be shown. Reference: ${req.id}`, { href: '/dashboard', label: 'Back to the dashboard' }),
    );
  });
  return app;
}
