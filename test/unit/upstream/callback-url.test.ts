import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { checkCallbackUrl } from '../../../src/upstream/callback-url.js';

/** The 422's issue type, or null when the URL is accepted. */
async function refusal(url: string, allowInsecure = false): Promise<string | null> {
  try {
    await checkCallbackUrl(url, allowInsecure);
    return null;
  } catch (err) {
    return ((err as { detail: { type: string }[] }).detail[0] ?? { type: 'none' }).type;
  }
}

describe('callback_url, checked at creation by the delivery’s rules', () => {
  it('refuses what the delivery could never reach: credentials, loopback names with or without the trailing dot, private literals', async () => {
    expect(await refusal('https://user:secret@hooks.example/cb')).toBe('url_credentials');
    expect(await refusal('https://:secret@hooks.example/cb')).toBe('url_credentials');
    // credentials are refused by the delivery whatever the private-fetch flag says
    expect(await refusal('http://user:pw@127.0.0.1:9/cb', true)).toBe('url_credentials');
    for (const host of [
      'localhost',
      'localhost.',
      'LOCALHOST..',
      'api.localhost',
      'api.localhost.',
      '127.0.0.1',
      '127.0.0.1.',
      '[::1]',
      '10.1.2.3',
      '[::ffff:127.0.0.1]',
    ])
      expect([host, await refusal(`https://${host}/cb`)]).toEqual([host, 'url_host']);
    expect(await refusal('http://hooks.example/cb')).toBe('url_scheme');
    expect(await refusal('not a url')).toBe('url_parsing');
  });

  it('resolves a name and refuses one that points at this machine (the machine’s own name)', async () => {
    expect(await refusal(`https://${os.hostname()}/cb`)).toBe('url_host');
    expect(await refusal(`https://${os.hostname()}./cb`)).toBe('url_host');
  });

  it('accepts public literals and names it cannot resolve now (the delivery checks them again); the test flag lets private ones through', async () => {
    expect(await refusal('https://93.184.215.14/cb')).toBeNull();
    expect(await refusal('https://hooks.invalid/cb')).toBeNull();
    expect(await refusal('http://127.0.0.1:9/cb', true)).toBeNull();
  });
});
