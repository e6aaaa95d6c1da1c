/**
 * The pure parts of the persisted-query repair (src/sources/rentaltwo/persisted-query.ts): where a
 * rotated hash is found in a script, which chunks a loader names, and which replies say the hash is unknown.
 */
import { describe, expect, it } from 'vitest';
import { findOperationHash, loaderModules, refusesPersistedQuery } from '../../../src/sources/rentaltwo/persisted-query.js';
import { pageScripts } from '../../../src/sources/shared/chunk-scan.js';
import { makeResponse } from '../../../src/upstream/response.js';

const H1 = 'a'.repeat(64);
const H2 = '0123456789abcdef'.repeat(4);

const reply = (body: unknown, status = 200) =>
  makeResponse({
    status,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
    wireBytes: 0,
    url: 'https://www.airbnb.com/api/v3/StaysSearch/x',
    elapsedMs: 0,
    egressMode: 'direct',
    attempts: 1,
    source: 'rentaltwo',
    framing: 'length',
    expect: 'json',
    dataDir: null,
    owner: null,
  });

describe('rentaltwo persisted-query hash in the site scripts', () => {
  it('reads the hash beside the operation name in either order, as operationId or sha256Hash, or in an /api/v3 path', () => {
    expect(
      findOperationHash('StaysSearch', `x={params:{name:"StaysSearch",operationKind:"query"},extensions:{persistedQuery:{version:1,sha256Hash:"${H1}"}}}`),
    ).toBe(H1);
    expect(findOperationHash('StaysSearch', `{'operationId':'${H2}',type:"query",'operationName':'StaysSearch'}`)).toBe(H2);
    expect(findOperationHash('StaysSearch', `fetch("/api/v3/StaysSearch/${H1}?operationName=StaysSearch")`)).toBe(H1);
  });

  it('takes no hash of another operation, nor a name without its hash', () => {
    expect(findOperationHash('StaysSearch', `{name:"StaysPdpSections",sha256Hash:"${H1}"}`)).toBeNull();
    expect(findOperationHash('StaysPdpSections', `{name:"StaysPdpSections",sha256Hash:"${H1}"}`)).toBe(H1);
    expect(findOperationHash('StaysSearch', 'const o="StaysSearch";n(48213)')).toBeNull();
    // a hash two kilobytes and more away from the name belongs to something else
    expect(findOperationHash('StaysSearch', `{name:"StaysSearch"}${' '.repeat(2100)}{sha256Hash:"${H1}"}`)).toBeNull();
  });

  it("resolves the loader's module paths under its packages/web folder, on the loader's host", () => {
    const loader = new URL('https://a0.muscache.com/airbnb/static/packages/web/en/frontend/airmetro/browser/asyncRequire.5f1c.js');
    const text = 'var m={1:"common/frontend/stays-search/routes/StaysSearchRoute/StaysSearchRoute.prepare.9b3d.js",2:"en/frontend/x.1a.js"}';
    expect(loaderModules(text, loader).map((u) => u.href)).toEqual([
      'https://a0.muscache.com/airbnb/static/packages/web/common/frontend/stays-search/routes/StaysSearchRoute/StaysSearchRoute.prepare.9b3d.js',
      'https://a0.muscache.com/airbnb/static/packages/web/en/frontend/x.1a.js',
    ]);
    expect(loaderModules(text, new URL('https://a0.muscache.com/other/loader.js'))).toEqual([]);
  });

  it("lists a page's scripts in document order, resolved against the page", () => {
    const html = '<script>inline()</script><script defer src="/static/a.js"></script><script src=\'https://a0.muscache.com/b.js?x=1&amp;y=2\'></script>';
    expect(pageScripts(html, new URL('https://www.airbnb.com/')).map((u) => u.href)).toEqual([
      'https://www.airbnb.com/static/a.js',
      'https://a0.muscache.com/b.js?x=1&y=2',
    ]);
  });

  it('knows the refusal of an unknown persisted query from other GraphQL errors', () => {
    expect(refusesPersistedQuery(reply({ errors: [{ message: 'PersistedQueryNotFound' }] }))).toBe(true);
    expect(refusesPersistedQuery(reply({ errors: [{ message: 'x', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] }))).toBe(true);
    expect(refusesPersistedQuery(reply({ errors: [{ message: 'Those dates are not available' }], data: null }))).toBe(false);
    expect(refusesPersistedQuery(reply({ errors: [{ message: 'PersistedQueryNotFound' }], data: { presentation: {} } }))).toBe(false);
    expect(refusesPersistedQuery(reply({ errors: [{ message: 'PersistedQueryNotFound' }] }, 500))).toBe(false);
  });
});
