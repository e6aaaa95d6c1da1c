import { McpServer, ProtocolErrorCode, type JSONRPCMessage, type McpServerFactory, type Server, type Transport } from '@modelcontextprotocol/server';

/** A protocol error's message stays under this many characters, whatever was sent. */
export const MAX_ERROR_MESSAGE = 199;

interface IssueLike {
  path?: unknown;
  message?: unknown;
}

/** The zod issue list the SDK puts in a message as JSON text, or null when the text is not one. */
function issuesIn(text: string): IssueLike[] | null {
  const at = text.indexOf('[');
  if (at < 0) return null;
  try {
    const parsed = JSON.parse(text.slice(at)) as unknown;
    return Array.isArray(parsed) && parsed.length > 0 && parsed.every((i) => i && typeof i === 'object' && 'message' in i) ? (parsed as IssueLike[]) : null;
  } catch {
    return null;
  }
}

/** `params.protocolVersion: Invalid input: expected string, received number (and 2 more)`. */
function summarise(issues: IssueLike[]): string {
  const first = issues[0];
  const where = Array.isArray(first.path) && first.path.length ? `${first.path.map(String).join('.')}: ` : '';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `${where}${String(first.message)}${more}`;
}

const cut = (text: string) => (text.length > MAX_ERROR_MESSAGE ? `${text.slice(0, MAX_ERROR_MESSAGE - 1)}…` : text);

/**
 * A JSON-RPC error as a client should get it: a request the SDK could not validate is -32602
 * (invalid params), never -32603 with the validator's dump (the SDK answers so for requests of the
 * spec methods it registers itself, `initialize` among them), and every message is short: one
 * line naming the first problem.
 */
function shortProtocolError(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message) || !message.error || typeof message.error.message !== 'string') return message;
  const { code, message: text } = message.error;
  const issues = issuesIn(text);
  if (!issues && text.length <= MAX_ERROR_MESSAGE) return message;
  if (!issues) return { ...message, error: { ...message.error, message: cut(text) } };
  const dumpAt = text.indexOf('[');
  const prefix = dumpAt > 0 ? text.slice(0, dumpAt).trim().replace(/:$/, '') : 'Invalid params';
  const fixed = code === Number(ProtocolErrorCode.InternalError) ? ProtocolErrorCode.InvalidParams : code;
  return { ...message, error: { ...message.error, code: fixed, message: cut(`${prefix}: ${summarise(issues)}`) } };
}

/** Every message the protocol instance sends through a transport passes shortProtocolError. */
function shortenErrorsOf(server: Server): void {
  const connect = server.connect.bind(server);
  server.connect = (transport: Transport) => {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(shortProtocolError(message), options);
    return connect(transport);
  };
}

/** The factory with short, correctly coded protocol errors on every server it makes (HTTP and stdio alike). */
export function withShortProtocolErrors(factory: McpServerFactory): McpServerFactory {
  return async (ctx) => {
    const product = await factory(ctx);
    shortenErrorsOf(product instanceof McpServer ? product.server : product);
    return product;
  };
}
