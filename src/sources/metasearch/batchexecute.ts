/**
 * Reads the front end's RPC replies: an anti-XSSI prefix `)]}'`, then length-prefixed chunks,
 * each one JSON line such as `[["wrb.fr","H028ib","<inner JSON>",null,null,null,"generic"]]`.
 * A refused call carries no payload and a status list at index 5 (`[["wrb.fr",null,null,null,null,[13]]]`).
 */
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

/** Form body of a batchexecute call: `f.req=[[[rpcId, JSON(args), null, "generic"]]]`. */
export function batchexecuteBody(rpcId: string, args: unknown): string {
  return new URLSearchParams({ 'f.req': JSON.stringify([[[rpcId, JSON.stringify(args), null, 'generic']]]) }).toString();
}
