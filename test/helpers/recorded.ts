import { gunzipSync } from 'node:zlib';
import YAML from 'yaml';
import { readFixture, readFixtureJson } from './fixtures.js';

/** The upstream status and body of a NewPipe mock (`response.responseBody` is the body as a string). */
export function newpipeBody(rel: string): { status: number; body: any; text: string } {
  const mock = readFixtureJson(rel);
  const text = mock.response.responseBody as string;
  return { status: mock.response.responseCode as number, body: JSON.parse(text), text };
}

export interface CassetteExchange {
  method: string;
  uri: string;
  status: number;
  body: string;
}

/** Interactions of a VCR.py cassette, bodies gunzipped when they are `!!binary` gzip. */
export function cassette(rel: string): CassetteExchange[] {
  const doc = YAML.parse(readFixture(rel), { customTags: ['binary'] }) as any;
  return (doc.interactions as any[]).map((it) => {
    const raw = it.response.body.string;
    const bytes = raw instanceof Uint8Array ? Buffer.from(raw) : Buffer.from(String(raw), 'utf8');
    const gz = bytes[0] === 0x1f && bytes[1] === 0x8b;
    return {
      method: it.request.method,
      uri: it.request.uri,
      status: it.response.status.code,
      body: (gz ? gunzipSync(bytes) : bytes).toString('utf8'),
    };
  });
}
