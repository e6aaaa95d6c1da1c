import { z } from 'zod';
import { inputHazards } from '../../core/validation.js';
import { OAuthProblem } from './errors.js';
import { redirectUriProblem } from './redirect-uris.js';

export type ClientAuthMethod = 'none' | 'client_secret_post' | 'client_secret_basic';
export const CLIENT_AUTH_METHODS: ClientAuthMethod[] = ['none', 'client_secret_post', 'client_secret_basic'];

/** The kept metadata, serialised, never exceeds this: registration is open to anyone. */
export const METADATA_MAX_BYTES = 8 * 1024;
/** A registration request body larger than this is refused before it is parsed. */
export const REGISTRATION_BODY_MAX_BYTES = 16 * 1024;

/** A page of the client's own, shown or linked one day: an https URL only, never a script or a local file. */
const httpsUrl = z
  .string()
  .max(1000)
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'https:' && !u.username && !u.password;
    } catch {
      return false;
    }
  }, 'must be an https URL (without credentials)');

const text = (max: number) => z.string().trim().min(1).max(max);

/**
 * The client metadata of RFC 7591 §2 (and the `client_id` of a Client ID Metadata Document), each
 * member with a cap. Other members, localised variants (`client_name#fr`) and the software
 * statement are dropped: never stored, never echoed.
 */
const ClientMetadata = z.object({
  redirect_uris: z.array(z.string()).min(1).max(10),
  token_endpoint_auth_method: z.enum(CLIENT_AUTH_METHODS).optional(),
  grant_types: z
    .array(z.enum(['authorization_code', 'refresh_token']))
    .max(2)
    .optional(),
  response_types: z.array(z.literal('code')).max(1).optional(),
  client_name: text(100).optional(),
  client_uri: httpsUrl.optional(),
  logo_uri: httpsUrl.optional(),
  tos_uri: httpsUrl.optional(),
  policy_uri: httpsUrl.optional(),
  jwks_uri: httpsUrl.optional(),
  scope: text(200).optional(),
  contacts: z.array(text(200)).max(5).optional(),
  software_id: text(100).optional(),
  software_version: text(50).optional(),
});
export type ClientMetadata = z.output<typeof ClientMetadata>;

/**
 * The metadata a registration or a metadata document states, reduced to the members above and
 * checked: what is kept is what is stored and echoed, at most METADATA_MAX_BYTES.
 */
export function parseClientMetadata(body: unknown, what: string): ClientMetadata {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OAuthProblem('invalid_client_metadata', `${what} must be a JSON object`);
  // nothing PostgreSQL cannot store, nothing nested deeper than any real metadata, anywhere in it
  const hazard = inputHazards(body, () => 'body')[0];
  if (hazard) throw new OAuthProblem('invalid_client_metadata', `${what}: ${hazard.loc.slice(1).join('.') || '(root)'}: ${hazard.msg}`.slice(0, 300));
  const parsed = ClientMetadata.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.join('.') || '(root)';
    const code = issue.path[0] === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata';
    throw new OAuthProblem(code, `${what}: ${where}: ${issue.message}`.slice(0, 300));
  }
  for (const uri of parsed.data.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthProblem('invalid_redirect_uri', problem);
  }
  if (Buffer.byteLength(JSON.stringify(parsed.data)) > METADATA_MAX_BYTES) {
    throw new OAuthProblem('invalid_client_metadata', `${what}: the metadata kept is larger than ${METADATA_MAX_BYTES} bytes`);
  }
  return parsed.data;
}
