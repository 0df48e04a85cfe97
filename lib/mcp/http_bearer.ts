import { digestHex } from "../platform/mod.ts";

/**
 * The bearer-token check of `mcp-server --http`: a request without `Authorization: Bearer <token>`
 * or with another token is answered 401 with `WWW-Authenticate: Bearer`. The comparison is of the
 * SHA-256 digests, byte by byte to the end: its time depends neither on how much of the token a
 * guess got right nor on the token's length.
 */
export function bearerCheck(token: string): (request: Request) => Response | null {
  const expected = digestHex("sha256", token);
  return (request) => {
    const header = request.headers.get("authorization");
    const presented = header === null ? null : /^Bearer +(\S+) *$/i.exec(header)?.[1] ?? null;
    if (presented !== null && sameText(digestHex("sha256", presented), expected)) return null;
    return unauthorized(
      header === null
        ? "Unauthorized: this server needs an Authorization: Bearer <token> header"
        : "Unauthorized: wrong bearer token",
      header === null ? 'Bearer realm="trellis"' : 'Bearer realm="trellis", error="invalid_token"',
    );
  };
}

/** Equal-length hex digests, compared without an early exit. */
function sameText(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

function unauthorized(message: string, challenge: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message }, id: null }), {
    status: 401,
    headers: { "content-type": "application/json", "www-authenticate": challenge },
  });
}
