/** A real local HTTP server that records the JSON bodies it receives. */
export function serve(
  handler: (
    body: Record<string, unknown>,
    request: Request,
    count: number,
  ) => Response | Promise<Response>,
) {
  const bodies: Record<string, unknown>[] = [];
  const paths: string[] = [];
  const headers: Headers[] = [];
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    async (request) => {
      const body = await request.json();
      bodies.push(body);
      paths.push(new URL(request.url).pathname);
      headers.push(request.headers);
      return handler(body, request, bodies.length);
    },
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  return {
    url,
    bodies,
    paths,
    headers,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}
