/**
 * XML-RPC (the protocol of WuBook's Wired API, xmlrpc.com's specification): a method call's body
 * from plain values, and a method response's value read back as plain data. Only the value types a
 * quote sends or reads: int, double, string, boolean, array, struct, nil (dates and base64 as text).
 */
import * as cheerio from 'cheerio';
import type { Element } from 'domhandler';
import { UpstreamContractChanged, UpstreamFailed } from '../../domain/errors.js';
import { isObject } from '../../domain/json.js';

export type RpcParam = string | number | boolean | RpcParam[];
export type RpcValue = string | number | boolean | null | RpcValue[] | { [name: string]: RpcValue };

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function encodeValue(v: RpcParam): string {
  if (typeof v === 'string') return `<string>${escapeXml(v)}</string>`;
  if (typeof v === 'boolean') return `<boolean>${v ? 1 : 0}</boolean>`;
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) <= 2147483647 ? `<int>${v}</int>` : `<double>${v}</double>`;
  return `<array><data>${v.map((x) => `<value>${encodeValue(x)}</value>`).join('')}</data></array>`;
}

/** The body of `POST` for one method call. */
export function xmlRpcCall(method: string, params: RpcParam[]): string {
  const values = params.map((p) => `<param><value>${encodeValue(p)}</value></param>`).join('');
  return `<?xml version="1.0"?><methodCall><methodName>${escapeXml(method)}</methodName><params>${values}</params></methodCall>`;
}

function decode($: cheerio.CheerioAPI, value: Element): RpcValue {
  const typed = $(value).children().first();
  const el = typed.get(0);
  // a value without a type element is a string (the specification's default)
  if (!el) return $(value).text();
  switch (el.tagName) {
    case 'string':
    case 'dateTime.iso8601':
    case 'base64':
      return typed.text();
    case 'int':
    case 'i4':
    case 'i8':
    case 'double': {
      const n = Number(typed.text().trim());
      if (!Number.isFinite(n)) throw new UpstreamContractChanged('official', `xml-rpc <${el.tagName}> that is not a number`);
      return n;
    }
    case 'boolean':
      return typed.text().trim() === '1';
    case 'nil':
      return null;
    case 'array':
      return typed
        .children('data')
        .children('value')
        .get()
        .map((v) => decode($, v));
    case 'struct': {
      const out: Record<string, RpcValue> = {};
      for (const member of typed.children('member').get()) {
        const v = $(member).children('value').get(0);
        if (v) out[$(member).children('name').text().trim()] = decode($, v);
      }
      return out;
    }
    default:
      throw new UpstreamContractChanged('official', `xml-rpc value <${el.tagName}>`);
  }
}

/**
 * The value of a method response. Text that is no XML-RPC response is `unusable` (502); a fault is
 * the server refusing the call (502 naming its code, never its text: it may echo the request).
 */
export function parseXmlRpcResponse(body: string, what: string): RpcValue {
  const trimmed = body.trim();
  const $ = trimmed.startsWith('<') ? cheerio.load(trimmed, { xml: true }) : null;
  const response = $?.root().children('methodResponse');
  if (!$ || !response?.length) throw new UpstreamFailed(`UnreadableReply (${what})`, 'unusable');
  const fault = response.children('fault').children('value').get(0);
  if (fault) {
    const f = decode($, fault);
    const code = isObject(f) && typeof f.faultCode === 'number' ? f.faultCode : 'unknown';
    throw new UpstreamFailed(`XmlRpcFault ${code} (${what})`, 'upstream_error');
  }
  const value = response.children('params').children('param').children('value').get(0);
  if (!value) throw new UpstreamContractChanged('official', `xml-rpc ${what} response without a value`);
  return decode($, value);
}
