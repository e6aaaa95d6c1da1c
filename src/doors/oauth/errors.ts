/** An OAuth error response (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 8707 §2): `{error, error_description}`. */
export class OAuthProblem extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
    this.name = 'OAuthProblem';
  }

  body() {
    return { error: this.error, error_description: this.description };
  }
}

export const invalidRequest = (d: string) => new OAuthProblem('invalid_request', d);
export const invalidClient = (d: string) => new OAuthProblem('invalid_client', d, 401);
export const invalidGrant = (d: string) => new OAuthProblem('invalid_grant', d);
