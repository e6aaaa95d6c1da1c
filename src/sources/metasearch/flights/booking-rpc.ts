/**
 * The booking options as the booking page's own script receives them: its `GetBookingResults`
 * reply, which the browser path captures (the RPC needs a header the page signs, so only the page
 * can make it). Framing as every front-end RPC: `)]}'`, then length-prefixed lines of `wrb.fr`
 * frames; this one sends several, and a payload without an option list is normal (a Go client's
 * wire notes on booking results). Rows are read by the row parser of parse-booking.ts.
 */
import { UpstreamContractChanged, UpstreamFailed } from '../../../domain/errors.js';
import { arrOrNull } from '../../../domain/json.js';
import { rpcFrames } from '../batchexecute.js';
import { findBookingOptions, type FlightBookingOption } from './parse-booking.js';

const SOURCE = 'metasearch';

/** The booking page's request that carries the options. */
export const BOOKING_RPC = /\.FlightsFrontendService\/GetBookingResults(\?|$)/;

function payloadOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamContractChanged(SOURCE, 'booking reply payload is not JSON');
  }
}

/** The option list slot (`inner[1][0]`) is there: an empty one means no seller, not a changed reply. */
function hasOptionList(inner: unknown): boolean {
  return arrOrNull(inner, 1, 0) !== null;
}

/**
 * Options of every frame, in order. A refusal (status frame, no payload) is a 502; payloads with
 * neither rows nor an option list are a contract change (503), never an empty answer.
 */
export function parseBookingResults(text: string): FlightBookingOption[] {
  const frames = rpcFrames(text);
  const payloads = frames.flatMap((f) => (f.payload === null ? [] : [payloadOf(f.payload)]));
  const options = payloads.flatMap((p) => findBookingOptions(p));
  if (options.length || payloads.some(hasOptionList)) return options;
  const refused = frames.find((f) => f.status !== null);
  if (refused) throw new UpstreamFailed(`RpcStatus${refused.status}`);
  throw new UpstreamContractChanged(SOURCE, `booking reply carries no booking options (${frames.length} wrb.fr frames)`);
}
