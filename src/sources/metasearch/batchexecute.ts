/**
 * Reads the front end's RPC replies: an anti-XSSI prefix `)]}'`, then length-prefixed chunks,
 * each one JSON line such as `[["wrb.fr","H028ib","<inner JSON>",null,null,null,"generic"]]`.
 * A refused call carries no payload and a status list at index 5 (`[["wrb.fr",null,null,null,null,[13]]]`).
 */
import { isAscii } from 'node:buffer';
import { UpstreamContractChanged, UpstreamFailed } from '../../domain/errors.js';

const SOURCE = 'metasearch';
const XSSI = ")]}'";

export interface RpcFrame {
  rpcId: string | null;
  payload: string | null;
  status: number | null;
}

/** Every `wrb.fr` frame of a reply, in order. */
export function rpcFrames(text: string): RpcFrame[] {
  const body = text.startsWith(XSSI) ? text.slice(XSSI.length) : text;
  const frames: RpcFrame[] = [];
  for (const line of body.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('[')) continue;
    let chunk: unknown;
    try {
      chunk = JSON.parse(trimmed);
    } catch {
      continue;
    }
    if (!Array.isArray(chunk)) continue;
    for (const entry of chunk) {
      if (!Array.isArray(entry) || entry[0] !== 'wrb.fr') continue;
      const status = Array.isArray(entry[5]) && typeof entry[5][0] === 'number' ? entry[5][0] : null;
      frames.push({
        rpcId: typeof entry[1] === 'string' ? entry[1] : null,
        payload: typeof entry[2] === 'string' ? entry[2] : null,
        status,
      });
    }
  }
  return frames;
}

/**
 * The parsed inner JSON of the first frame for `rpcId` (null matches frames of the named
 * service endpoints, which carry no id). A refusal is a 502; no frame at all a contract change.
 */
export function rpcPayload(text: string, rpcId: string | null): unknown {
  const frames = rpcFrames(text);
  const frame = frames.find((f) => f.payload !== null && (rpcId === null || f.rpcId === rpcId));
  if (!frame) {
    // refusals name no rpc id
    const refused = frames.find((f) => f.status !== null);
    if (refused) throw new UpstreamFailed(`RpcStatus${refused.status}`);
    throw new UpstreamContractChanged(SOURCE, `no wrb.fr frame${rpcId ? ` for ${rpcId}` : ''}`);
  }
  try {
    return JSON.parse(frame.payload as string);
  } catch {
    throw new UpstreamContractChanged(SOURCE, 'rpc payload is not JSON');
  }
}

/** A JSON escape of a character from U+0080 to U+00FF, at either level of a reply's nesting. */
const LATIN1_RANGE_ESCAPE = /\\u00[89a-f]/i;
/** Characters U+0080 to U+00FF: in a reply read as Latin-1, the bytes of UTF-8 sequences. */
const HIGH = /[\x80-\xff]/;
const HIGH_RUNS = /[\x80-\xff]+/g;
const asUtf8 = (run: string) => Buffer.from(run, 'latin1').toString('utf8');

/** Every string in `v` read back from Latin-1 into the UTF-8 it was sent as (arrays and objects changed in place). */
function utf8Strings(v: unknown): unknown {
  if (typeof v === 'string') return HIGH.test(v) ? v.replace(HIGH_RUNS, asUtf8) : v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === 'string' || (typeof x === 'object' && x !== null)) v[i] = utf8Strings(x);
    }
  } else if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) o[k] = utf8Strings(o[k]);
  }
  return v;
}

/**
 * `rpcPayload` of a UTF-8 reply body, read without decoding the whole body as UTF-8. A reply
 * holding any non-ASCII byte (a "€" in a price) makes Node decode all of it on V8's slow path and
 * hold it as a two-byte string, which both JSON.parse passes then walk at half speed (~0.6 ms of a
 * 93 KB calendar window). Read as Latin-1 instead (one byte, one character, a copy), JSON is parsed
 * the same way, because its syntax is ASCII and the bytes of a UTF-8 sequence (0x80-0xFF) are never
 * mistaken for it; the strings that came out holding such bytes are then decoded from them. A
 * reply that also escapes characters of that range (`\u00e9`) cannot be told apart that way and is
 * decoded as UTF-8 first, as is a body whose charset is not UTF-8 (the caller's to check).
 */
export function rpcPayloadOfBytes(body: Buffer, rpcId: string | null): unknown {
  const text = body.toString('latin1');
  if (isAscii(body)) return rpcPayload(text, rpcId);
  if (LATIN1_RANGE_ESCAPE.test(text)) return rpcPayload(body.toString('utf8'), rpcId);
  return utf8Strings(rpcPayload(text, rpcId));
}

/** Form body of a batchexecute call: `f.req=[[[rpcId, JSON(args), null, "generic"]]]`. */
export function batchexecuteBody(rpcId: string, args: unknown): string {
  return new URLSearchParams({ 'f.req': JSON.stringify([[[rpcId, JSON.stringify(args), null, 'generic']]]) }).toString();
}
