/**
 * A cookie-keeping HTTP client that follows redirects by hand, the way a browser walks an
 * OAuth authorization: it stops at the first redirect that leaves the server (the app's
 * callback) and answers it. Paths of cookies are ignored (every cookie goes to the one server).
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();

  constructor(readonly origin: string) {}

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(new URL(url, this.origin), {
      ...init,
      redirect: 'manual',
      headers: { cookie: this.cookieHeader(), 'user-agent': 'vitest-browser', ...(init.headers as Record<string, string> | undefined) },
    });
    this.remember(response);
    return response;
  }

  /**
   * Follows redirects from `url` while they stay on the server; answers the last response and
   * the URL it stopped at (an outside redirect's target, or the page that answered).
   */
  async walk(url: string, init: RequestInit = {}): Promise<{ response: Response; url: URL; visited: string[] }> {
    let current = new URL(url, this.origin);
    const visited: string[] = [];
    let response = await this.request(current.href, init);
    for (let hops = 0; hops < 20; hops += 1) {
      visited.push(current.pathname);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { response, url: current, visited };
      const next = new URL(location, current);
      if (next.origin !== this.origin) return { response, url: next, visited };
      current = next;
      response = await this.request(current.href);
    }
    throw new Error(`too many redirects from ${url}`);
  }
}
