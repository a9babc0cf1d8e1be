/** The registered routes, so a request on a known path with the wrong method can get 405 instead of 404. */
export class RouteTable {
  private readonly routes: { pattern: RegExp; method: string }[] = [];

  add(url: string, methods: string | string[]): void {
    const source = url
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const pattern = new RegExp(`^${source}/?$`);
    for (const method of [methods].flat()) this.routes.push({ pattern, method });
  }

  methodsFor(path: string): string[] {
    const methods = this.routes.filter((route) => route.pattern.test(path)).map((route) => route.method);
    return [...new Set(methods)].sort();
  }
}
