/**
 * The opaque token next to every price on the flight pages is a base64 protobuf whose
 * field 3 holds the money the price was computed in; its currency code is the one thing
 * we read from it (the page's display price has no currency beside it).
 */
import { ProtoDecodeError, base64ToBytes, decodeFields, fieldBytes, fieldString } from '../protobuf.js';

const FIELDS = { money: 3, moneyCurrency: 3 } as const;

/** ISO currency of a price token, or null when the token is absent or has another shape. */
export function priceTokenCurrency(token: unknown): string | null {
  if (typeof token !== 'string' || !token) return null;
  try {
    const money = decodeFields(base64ToBytes(token)).find((f) => f.field === FIELDS.money);
    if (!money) return null;
    const cur = decodeFields(fieldBytes(money.value)).find((f) => f.field === FIELDS.moneyCurrency);
    if (!cur) return null;
    const code = fieldString(cur.value);
    return /^[A-Z]{3}$/.test(code) ? code : null;
  } catch (err) {
    if (err instanceof ProtoDecodeError) return null;
    throw err;
  }
}
