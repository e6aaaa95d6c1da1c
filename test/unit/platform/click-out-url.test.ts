import { describe, expect, it } from 'vitest';
import { isClickOutUrl } from '../../../src/platform/booking-links.js';

describe('a booking link is minted only for a seller URL a browser may post to', () => {
  it('takes absolute http(s) URLs and refuses scripts, data, relative and malformed targets', () => {
    for (const url of ['https://www.google.com/travel/clk/f', 'http://example.com/book?x=1']) expect(isClickOutUrl(url), url).toBe(true);
    for (const url of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,<b>x</b>',
      '/travel/clk/f',
      '',
      'ftp://x.example/',
      'https//missing-colon',
    ])
      expect(isClickOutUrl(url), url).toBe(false);
  });
});
