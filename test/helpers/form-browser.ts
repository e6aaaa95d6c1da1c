/** A one-cookie browser over real HTTP: keeps the session cookie, never follows redirects. */
export class FormBrowser {
  cookie: string | undefined;
  lastSetCookie: string[] = [];
  constructor(
    private readonly base: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  async request(path: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...this.headers, ...(init.headers ?? {}) };
    if (this.cookie) headers.cookie = this.cookie;
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(this.base + path, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      redirect: 'manual',
    });
    this.lastSetCookie = res.headers.getSetCookie();
    for (const c of this.lastSetCookie) {
      const [pair] = c.split(';');
      this.cookie = pair.endsWith('=') ? undefined : pair;
    }
    return { status: res.status, location: res.headers.get('location'), text: await res.text(), headers: res.headers };
  }

  /** Opens a page and returns its CSRF token. */
  async csrf(path: string): Promise<string> {
    const page = await this.request(path);
    const m = /name="_csrf" value="([^"]+)"/.exec(page.text);
    if (!m) throw new Error(`no CSRF token on ${path} (status ${page.status}, location ${page.location})`);
    return m[1];
  }

  async signIn(email: string, password: string) {
    const _csrf = await this.csrf('/dashboard/sign-in');
    return this.request('/dashboard/sign-in', { form: { _csrf, email, password } });
  }
}
