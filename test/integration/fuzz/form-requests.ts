import fc from 'fast-check';
import type { FuzzRequest } from './requests.js';

/**
 * Requests at the browser and OAuth forms (issue 36): the dashboard's pages and forms, signed in or
 * not, with paths that are not valid percent-encoding, forms with and without their token, empty,
 * oversized, over the field limit, of another content type; the OAuth token and revocation forms
 * oversized, unreadable and percent-encoded wrongly (in the form and in HTTP Basic credentials,
 * which OAuth form-encodes). Their rules are in edge-rules.ts.
 */

/** A signed-in dashboard session of an account of its own (not the fuzzer's API key's). */
export interface DashboardSession {
  /** `dash_session=…` */
  cookie: string;
  csrf: string;
  /** A watch of that account (pause, resume and views reach a real one). */
  watchId: string;
}

/** Path segments that are not valid percent-encoding (or decode to something odd). */
export const BAD_ENCODINGS = ['%ZZ', '%', '%zz', '%E0%A4%A', '%C0%AF', '%ff%fe', 'a%G1b', '%%41'] as const;
const ODD_SEGMENTS = ['%00', '%2e%2e', '%2F', 'x'.repeat(4_000), '\u00e9'.normalize(), 'watch_nope'];

const PAGES = ['', '/', '/api', '/usage', '/jobs', '/watches', '/apps', '/sources', '/password', '/sign-in', '/oauth/authorize', '/api/rotate', '/nope'];
const QUERIES = [
  '',
  'period=7d',
  'period=%ZZ',
  'period=' + 'x'.repeat(3_000),
  'next=%ZZ',
  'next=https://evil.example/',
  'next=/dashboard/oauth/authorize?client_id=%ZZ',
  'name=%E0%A4%A',
  'name[]=a&name[]=b',
  'notice=%',
  'client_id=x&redirect_uri=%ZZ&response_type=code&code_challenge=abc&code_challenge_method=S256',
  'response_type=code&client_id=' + 'c'.repeat(2_000),
  Array.from({ length: 300 }, (_, i) => `k${i}=v`).join('&'),
];
/** The forms, sign-out left out (it would end the session the other requests use). */
const FORMS = [
  '/sign-in',
  '/password',
  '/api/key',
  '/api/rotate',
  '/watches/{id}/pause',
  '/watches/{id}/resume',
  '/watches/{id}/delete',
  '/oauth/authorize',
  '/apps/revoke',
];
const FIELDS = [
  'email',
  'password',
  'current',
  'new_password',
  'confirm',
  'name',
  'grant',
  'back',
  'next',
  'decision',
  'client_id',
  'redirect_uri',
  'response_type',
  'code_challenge',
  'code_challenge_method',
  'state',
  'scope',
  'resource',
];

const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', 'a\u0000b', '\ud800', 'x'.repeat(400), '%ZZ', '/dashboard/watches', 'approve', 'https://evil.example/', '__proto__'),
);

/** A raw form body, as a broken or hostile client sends it (`csrf` filled in where it goes). */
function rawForms(csrf: string): string[] {
  return [
    '',
    '=',
    '%',
    'a=%ZZ',
    `_csrf=${csrf}&name=%E0%A4%A`,
    `_csrf=${csrf}&_csrf=${csrf}`,
    `_csrf=${csrf}&name=a&name=b`,
    `_csrf=%ZZ${csrf}`,
    `_csrf=${csrf}&pad=${'x'.repeat(20_000)}`,
    `_csrf=${csrf}&` + Array.from({ length: 30 }, (_, i) => `f${i}=1`).join('&'),
    '\u0000\u0001\u0002',
  ];
}

const CONTENT_TYPES = ['application/x-www-form-urlencoded', 'application/json', 'text/plain', 'multipart/form-data; boundary=x', ''];

function dashboardRequest(method: string, path: string, query: string, cookie: string | null, body?: string, contentType?: string): FuzzRequest {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (body !== undefined && contentType) headers['content-type'] = contentType;
  return {
    op: `${method} /dashboard${path.replace(/\/watches\/[^/]+/, '/watches/:id')}`,
    kind: 'edge',
    method,
    path: `/dashboard${path}`,
    query,
    headers,
    body,
    recorded: false,
  };
}

/** Dashboard requests: pages and forms, with `s`'s session most of the time. */
export function dashboardRequests(s: DashboardSession): fc.Arbitrary<FuzzRequest> {
  const cookie = fc.constantFrom<string | null>(s.cookie, s.cookie, s.cookie, s.cookie, null, 'dash_session=forged', `dash_session=${'a'.repeat(3_000)}`);
  const id = fc.constantFrom(s.watchId, s.watchId, ...BAD_ENCODINGS, ...ODD_SEGMENTS);
  const page = fc.oneof(
    fc.constantFrom(...PAGES),
    id.map((w) => `/watches/${w}`),
    fc.constantFrom(...BAD_ENCODINGS).map((b) => `/${b}`),
  );
  const pages = fc.tuple(page, fc.constantFrom(...QUERIES), cookie).map(([p, q, c]) => dashboardRequest('GET', p, q, c));
  const fields = fc.dictionary(fc.constantFrom(...FIELDS), text, { maxKeys: 6 });
  const formBody = fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(fields, fc.constantFrom<'valid' | 'none' | 'forged'>('valid', 'valid', 'none', 'forged'))
        .map(([f, token]) =>
          new URLSearchParams({ ...f, ...(token === 'valid' ? { _csrf: s.csrf } : token === 'forged' ? { _csrf: 'forged' } : {}) }).toString(),
        ),
    },
    { weight: 2, arbitrary: fc.constantFrom(...rawForms(s.csrf)) },
    { weight: 1, arbitrary: fc.constant<string | undefined>(undefined) },
  );
  const forms = fc
    .tuple(fc.constantFrom(...FORMS), id, fc.constantFrom('', 'next=%ZZ', 'a=%E0%A4%A'), cookie, formBody, fc.constantFrom(...CONTENT_TYPES))
    .map(([form, w, q, c, body, type]) => dashboardRequest('POST', form.replace('{id}', w), q, c, body, body === undefined ? undefined : type || undefined));
  return fc.oneof({ weight: 2, arbitrary: pages }, { weight: 3, arbitrary: forms });
}

const OAUTH_FIELDS = [
  'grant_type',
  'code',
  'redirect_uri',
  'client_id',
  'client_secret',
  'code_verifier',
  'refresh_token',
  'token',
  'token_type_hint',
  'resource',
];
const RAW_OAUTH_FORMS = [
  '',
  '%',
  'grant_type=%ZZ',
  'grant_type=authorization_code&code=%E0%A4%A&client_id=%C0%AF',
  'token=%ff%fe&client_id=a%G1b',
  'grant_type=refresh_token&grant_type=authorization_code',
  // just over the form limit, and far over it
  `grant_type=authorization_code&code=${'c'.repeat(17_000)}`,
  `token=${'t'.repeat(21_000)}`,
  `token=${'t'.repeat(200_000)}`,
  Array.from({ length: 40 }, (_, i) => `f${i}=1`).join('&'),
  '{"grant_type":"authorization_code"}',
];
/** HTTP Basic client credentials: OAuth form-encodes the id and secret before base64, so these may not decode. */
const BASIC = ['%ZZ:secret', 'client:%E0%A4%A', 'no-colon', ':', '%00:%00', `${'i'.repeat(3_000)}:s`].map((c) => `Basic ${Buffer.from(c).toString('base64')}`);

/** The OAuth token and revocation forms, and OAuth paths that are not valid percent-encoding. */
export function oauthFormRequests(): fc.Arbitrary<FuzzRequest> {
  const fields = fc.dictionary(fc.constantFrom(...OAUTH_FIELDS), text, { maxKeys: 6 }).map((f) => new URLSearchParams(f).toString());
  const body = fc.oneof({ weight: 2, arbitrary: fields }, { weight: 2, arbitrary: fc.constantFrom(...RAW_OAUTH_FORMS) });
  const forms = fc
    .tuple(
      fc.constantFrom('/oauth/token', '/oauth/revoke'),
      body,
      fc.constantFrom('application/x-www-form-urlencoded', 'application/x-www-form-urlencoded', 'application/json', 'text/plain'),
      fc.option(fc.constantFrom(...BASIC, 'Basic %%%', 'Bearer x'), { freq: 3 }),
      fc.constantFrom('', '', 'grant_type=%ZZ'),
    )
    .map(([path, b, type, auth, query]): FuzzRequest => {
      const headers: Record<string, string> = { 'content-type': type };
      if (auth) headers.authorization = auth;
      return { op: `POST ${path}`, kind: 'edge', method: 'POST', path, query, headers, body: b, recorded: false };
    });
  const paths = fc
    .tuple(fc.constantFrom('/oauth/', '/oauth/token/', '/.well-known/oauth-protected-resource/', '/dashboard/oauth/'), fc.constantFrom(...BAD_ENCODINGS))
    .map(([prefix, bad]): FuzzRequest => ({
      op: `GET ${prefix}(bad encoding)`,
      kind: 'edge',
      method: 'GET',
      path: `${prefix}${bad}`,
      query: '',
      headers: {},
      recorded: false,
    }));
  return fc.oneof({ weight: 4, arbitrary: forms }, { weight: 1, arbitrary: paths });
}
