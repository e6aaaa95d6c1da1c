/**
 * Request headers a real browser of each device profile sends. Chrome sends the sec-ch-ua
 * client hints; Safari does not. Header names are lowercase; callers' headers override these.
 */
export type Device = 'iphone' | 'android' | 'desktop';
export type Expect = 'html' | 'json' | 'any';

interface Profile {
  userAgent: string;
  acceptHtml: string;
  acceptEncoding: string;
  clientHints: Record<string, string> | null;
}

const CHROME_MAJOR = '138';
const CHROME_BRANDS = `"Not)A;Brand";v="8", "Chromium";v="${CHROME_MAJOR}", "Google Chrome";v="${CHROME_MAJOR}"`;
const CHROME_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';

const PROFILES: Record<Device, Profile> = {
  iphone: {
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
    acceptHtml: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    acceptEncoding: 'gzip, deflate, br',
    clientHints: null,
  },
  android: {
    userAgent: `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_MAJOR}.0.0.0 Mobile Safari/537.36`,
    acceptHtml: CHROME_ACCEPT,
    acceptEncoding: 'gzip, deflate, br, zstd',
    clientHints: { 'sec-ch-ua': CHROME_BRANDS, 'sec-ch-ua-mobile': '?1', 'sec-ch-ua-platform': '"Android"' },
  },
  desktop: {
    userAgent: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_MAJOR}.0.0.0 Safari/537.36`,
    acceptHtml: CHROME_ACCEPT,
    acceptEncoding: 'gzip, deflate, br, zstd',
    clientHints: { 'sec-ch-ua': CHROME_BRANDS, 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Windows"' },
  },
};

/** Main browser language per country; countries not listed get en-US. */
const MARKET_LANGUAGE: Record<string, string> = {
  US: 'en-US',
  GB: 'en-GB',
  IE: 'en-IE',
  CA: 'en-CA',
  AU: 'en-AU',
  NZ: 'en-NZ',
  AG: 'en-AG',
  BZ: 'en-BZ',
  IN: 'en-IN',
  SG: 'en-SG',
  ZA: 'en-ZA',
  DE: 'de-DE',
  AT: 'de-AT',
  CH: 'de-CH',
  FR: 'fr-FR',
  BE: 'nl-BE',
  NL: 'nl-NL',
  ES: 'es-ES',
  MX: 'es-MX',
  AR: 'es-AR',
  CL: 'es-CL',
  CO: 'es-CO',
  PE: 'es-PE',
  IT: 'it-IT',
  PT: 'pt-PT',
  BR: 'pt-BR',
  JP: 'ja-JP',
  KR: 'ko-KR',
  CN: 'zh-CN',
  TW: 'zh-TW',
  HK: 'zh-HK',
  PL: 'pl-PL',
  SE: 'sv-SE',
  NO: 'nb-NO',
  DK: 'da-DK',
  FI: 'fi-FI',
  CZ: 'cs-CZ',
  HU: 'hu-HU',
  RO: 'ro-RO',
  TR: 'tr-TR',
  GR: 'el-GR',
  IL: 'he-IL',
  AE: 'ar-AE',
  SA: 'ar-SA',
  TH: 'th-TH',
  VN: 'vi-VN',
  ID: 'id-ID',
  MY: 'ms-MY',
};

/** Accept-Language a browser set up for this market sends, e.g. `de-DE,de;q=0.9,en;q=0.8`. */
export function acceptLanguage(market: string | undefined): string {
  const tag = (market && MARKET_LANGUAGE[market.toUpperCase()]) || 'en-US';
  const lang = tag.split('-')[0];
  return lang === 'en' ? `${tag},en;q=0.9` : `${tag},${lang};q=0.9,en;q=0.8`;
}

/** Headers of a top-level navigation (html/any) or a same-origin XHR (json) from this device. */
export function deviceHeaders(device: Device, market: string | undefined, expect: Expect): Record<string, string> {
  const p = PROFILES[device];
  const headers: Record<string, string> = {
    'user-agent': p.userAgent,
    'accept-language': acceptLanguage(market),
    'accept-encoding': p.acceptEncoding,
    ...(p.clientHints ?? {}),
  };
  if (expect === 'json') {
    headers.accept = 'application/json, text/plain, */*';
    headers['sec-fetch-dest'] = 'empty';
    headers['sec-fetch-mode'] = 'cors';
    headers['sec-fetch-site'] = 'same-origin';
  } else {
    headers.accept = p.acceptHtml;
    headers['upgrade-insecure-requests'] = '1';
    headers['sec-fetch-dest'] = 'document';
    headers['sec-fetch-mode'] = 'navigate';
    headers['sec-fetch-site'] = 'none';
    headers['sec-fetch-user'] = '?1';
  }
  return headers;
}
