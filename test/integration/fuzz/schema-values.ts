import fc from 'fast-check';

/** The JSON Schema subset an OpenAPI document of ours carries (draft 2020-12 as zod emits it). */
export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  default?: unknown;
}

/**
 * Stand-ins replaced in the serialised body (building a value thousands of levels deep, or
 * stringifying one, would blow the fuzzer's own stack).
 */
const DEEP_MARK = '\u0001deep:';
function deepMarker(levels: number, kind: 'array' | 'object'): string {
  return `${DEEP_MARK}${kind}:${levels}\u0001`;
}

/** Serialises a body, expanding deep-nesting markers into JSON text that deep. */
export function serialise(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0001deep:(array|object):(\d+)\\u0001"/g, (_m, kind: string, n: string) =>
    nestedText(Number(n), kind as 'array' | 'object'),
  );
}

export function nestedText(levels: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(levels) + ']'.repeat(levels) : '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
}

export interface ValueContext {
  /** Base URL of the fuzz upstream: URL-shaped fields sometimes point there so fetchers run. */
  upstreamUrl: string;
}

const DAY = 86_400_000;

function isoDate(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);
}

function types(s: Schema): string[] {
  if (Array.isArray(s.type)) return s.type;
  if (s.type) return [s.type];
  if (s.properties) return ['object'];
  if (s.items) return ['array'];
  return [];
}

/** Plausible values for fields whose schema only says "string" (refined in code), so that handlers run. */
const HINTS: [RegExp, string[]][] = [
  [/^(gl|country|geo|market)$/, ['us', 'gb', 'de', 'fr', 'US', 'GB', 'DE', 'JP']],
  [/^fallback_markets$/, ['GB', 'DE', 'FR']],
  [/^currency$/, ['USD', 'EUR', 'GBP', 'JPY', 'usd']],
  [/^(hl|lang)$/, ['en', 'de', 'fr', 'en-GB']],
  [/^job_id$/, ['3912345678', '4012345678']],
  [/^rentaltwo_domain$/, ['www.airbnb.com', 'www.airbnb.co.uk', 'www.airbnb.de']],
  [/^(q|query|term|keyword|keywords|name|property_name|city)$/, ['paris', 'London hotel', 'slack', 'Hotel Lutetia', 'New York', 'software engineer']],
  [/^(departure_id|arrival_id)$/, ['JFK', 'LHR', 'CDG', '/m/04jpl']],
  [/^(video_id)$/, ['dQw4w9WgXcQ', 'jNQXAC9IVRw']],
  [/^(channel)$/, ['@YouTube', 'UCBR8-60-B28hp2BmDPdntcQ', 'https://www.youtube.com/@%E0%A4%A']],
  [/^(property_id|item_id|app_id)$/, ['9209612', '618783545', '321456', '12345']],
  [/^listing_id$/, ['321456ha', '9209612']],
];

function stringArb(s: Schema, ctx: ValueContext, name: string): fc.Arbitrary<string> {
  const hint = HINTS.find(([re]) => re.test(name));
  if (hint)
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...hint[1]) },
      { weight: 1, arbitrary: fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 20, 20) }) },
    );
  if (s.format === 'date' || s.pattern === '^\\d{4}-\\d{2}-\\d{2}$') return fc.integer({ min: -3, max: 400 }).map(isoDate);
  if (s.format === 'date-time') return fc.integer({ min: -3, max: 400 }).map((d) => new Date(Date.now() + d * DAY).toISOString());
  if (s.format === 'uri' || /url|link|website/i.test(name)) {
    return fc.oneof(
      fc.webPath().map((p) => `${ctx.upstreamUrl}/site${p.startsWith('/') ? p : `/${p}`}`),
      fc.constantFrom(
        'https://boards.greenhouse.io/acme',
        'https://jobs.lever.co/acme',
        'https://www.linkedin.com/jobs/view/3912345678',
        'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
        'https://apps.apple.com/us/app/slack/id618783545',
        'https://boards.greenhouse.io/%E0%A4%A',
      ),
      fc.webUrl(),
    );
  }
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 40, Math.max(min, 40));
  if (s.pattern) {
    let re: RegExp | null;
    try {
      re = new RegExp(s.pattern);
    } catch {
      re = null;
    }
    if (re) {
      const matching = fc.stringMatching(re).filter((v) => v.length >= min && v.length <= (s.maxLength ?? Infinity));
      return fc.oneof({ weight: 4, arbitrary: matching }, { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: max }) });
    }
  }
  return fc.oneof(fc.string({ minLength: min, maxLength: max }), fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }));
}

function numberArb(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 1e-6) : -1000);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 1e-6) : Math.max(lo + 1000, 1000));
  if (integer) return fc.integer({ min: Math.ceil(Math.max(lo, Number.MIN_SAFE_INTEGER)), max: Math.floor(Math.min(hi, Number.MAX_SAFE_INTEGER)) });
  return fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
}

/** A value the schema accepts (mostly: patterns and formats are matched loosely on purpose). */
export function validValue(s: Schema, ctx: ValueContext, name = '', depth = 0): fc.Arbitrary<unknown> {
  if ('const' in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const variants = s.anyOf ?? s.oneOf;
  if (variants?.length) return fc.oneof(...variants.map((v) => validValue(v, ctx, name, depth)));
  if (s.allOf?.length) return validValue(Object.assign({}, ...s.allOf), ctx, name, depth);
  const ts = types(s);
  if (!ts.length) return depth > 3 ? fc.string() : fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(...ts.map((t) => typedValue(t, s, ctx, name, depth)));
}

function typedValue(t: string, s: Schema, ctx: ValueContext, name: string, depth: number): fc.Arbitrary<unknown> {
  switch (t) {
    case 'string':
      return stringArb(s, ctx, name);
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(s.items ? validValue(s.items, ctx, name, depth + 1) : fc.string(), {
        minLength: s.minItems ?? 0,
        maxLength: Math.min(s.maxItems ?? 4, Math.max(s.minItems ?? 0, 4)),
      });
    case 'object':
      return validObject(s, ctx, depth + 1);
    default:
      return fc.constant(null);
  }
}

/** Required properties always, optional ones sometimes. */
export function validObject(s: Schema, ctx: ValueContext, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const props = s.properties ?? {};
  const required = new Set(s.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props)) model[k] = validValue(v, ctx, k, depth);
  const requiredKeys = Object.keys(props).filter((k) => required.has(k));
  return fc.record(model, { requiredKeys });
}

/** Values that break the schema: wrong types, bounds, patterns, NUL bytes, huge strings, deep nesting. */
export function hostileValue(s: Schema): fc.Arbitrary<unknown> {
  const ts = types(s);
  const out: fc.Arbitrary<unknown>[] = [
    fc.constantFrom(null, true, 0, -1, 1e308, -1e308, 0.5, '', ' ', '0', 'null', 'true', '[]', '{}', 'NaN', '-Infinity', '1e999', '９', '٣'),
    fc.constantFrom([], {}, [null], { a: 1 }, [[[]]], { '': '' }, { __proto__: null }, { constructor: { prototype: 1 } }),
    fc.string({ maxLength: 30 }).map((x) => `${x}\u0000${x}`),
    fc.constantFrom(
      '\u0000',
      '%00',
      'a\u0000b',
      '\ud800',
      'x\udfffy',
      '\u202e\u200b\ufeff',
      '../../etc/passwd',
      "' OR 1=1 --",
      '${jndi:ldap://x}',
      '<script>alert(1)</script>',
      '\r\nX-Injected: 1',
    ),
    fc.integer({ min: 1, max: 4 }).map((n) => 'A'.repeat(10 ** (n + 1))),
    fc.constantFrom(2_100_000, 300_000, 70_000).map((n) => 'Z'.repeat(n)),
    fc.constantFrom(64, 1_000, 5_000, 100_000).chain((n) => fc.constantFrom(deepMarker(n, 'array'), deepMarker(n, 'object'))),
    fc.array(fc.string(), { minLength: 50, maxLength: 200 }),
  ];
  if (ts.includes('string')) {
    if (s.maxLength !== undefined) out.push(fc.constant('x'.repeat(s.maxLength + 1)));
    if (s.minLength) out.push(fc.constant('x'.repeat(s.minLength - 1)));
    if (s.format === 'date') out.push(fc.constantFrom('2025-02-30', '2025-13-01', '0000-00-00', '9999-12-31', '2025-1-1', '20250101', '1970-01-01'));
    if (s.format === 'uri')
      out.push(
        fc.constantFrom(
          'https://boards.greenhouse.io/%E0%A4%A',
          'https://www.youtube.com/@%zz',
          'http://',
          'file:///etc/passwd',
          'http://169.254.169.254/latest/meta-data',
          'http://[::1]:22/',
          'javascript:alert(1)',
          'http://a b',
          'http://%zz',
        ),
      );
  }
  if (ts.includes('integer') || ts.includes('number')) {
    if (s.minimum !== undefined) out.push(fc.constantFrom(s.minimum - 1, s.minimum - 0.5));
    if (s.maximum !== undefined) out.push(fc.constantFrom(s.maximum + 1, s.maximum + 0.5));
    out.push(fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -Number.MAX_SAFE_INTEGER - 2, 1.5, -0));
  }
  if (s.enum) out.push(fc.constantFrom(...s.enum.map((e) => (typeof e === 'string' ? e.toUpperCase() + '_' : e))));
  if (ts.includes('array') && s.maxItems !== undefined)
    out.push(fc.constant(Array.from({ length: s.maxItems + 1 }, (_, i) => (s.items && types(s.items)[0] === 'string' ? `x${i}` : i))));
  return fc.oneof(...out);
}
