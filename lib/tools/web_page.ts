/**
 * One web_fetch download (#23 item 3): http(s) only, redirects followed by hand (at most five) so
 * each hop's address is judged before it is reached, a host change followed only when the new host
 * may be fetched without asking, the body read up to a byte cap, everything under one time cap.
 */
import { judgeHost } from "./web_address_guard.ts";

export interface WebFetchLimits {
  maxBytes: number;
  timeoutMs: number;
  /** Loopback/private addresses a test may reach. */
  allowPrivateAddresses: readonly string[];
}

export type WebPage =
  | { kind: "page"; url: string; status: number; contentType: string; body: Uint8Array; truncated: boolean }
  /** A redirect to another host that needs its own call (and approval). */
  | { kind: "redirect"; from: string; to: string; status: number }
  | { kind: "refused"; reason: string };

const MAX_REDIRECTS = 5;

export async function downloadPage(
  start: URL,
  limits: WebFetchLimits,
  mayFollow: (host: string) => boolean,
  signal: AbortSignal,
): Promise<WebPage> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const both = AbortSignal.any([signal, deadline]);
  const timedOut = () => deadline.aborted && !signal.aborted;
  let url = start;
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const verdict = await judgeHost(url.hostname, limits.allowPrivateAddresses);
      if (!verdict.ok) {
        return {
          kind: "refused",
          reason: hop === 0 ? verdict.reason : `redirected to ${url.href}: ${verdict.reason}`,
        };
      }
      const response = await fetch(url, {
        redirect: "manual",
        signal: both,
        headers: { "accept": "text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5" },
      });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        const next = new URL(location, url);
        if (next.protocol !== "http:" && next.protocol !== "https:") {
          return { kind: "refused", reason: `redirected to ${next.href}: only http and https are fetched` };
        }
        const nextVerdict = await judgeHost(next.hostname, limits.allowPrivateAddresses);
        if (!nextVerdict.ok) {
          return { kind: "refused", reason: `redirected to ${next.href}: ${nextVerdict.reason}` };
        }
        if (next.host !== url.host && !mayFollow(next.hostname)) {
          return { kind: "redirect", from: url.href, to: next.href, status: response.status };
        }
        url = next;
        continue;
      }
      const { body, truncated } = await readCapped(response, limits.maxBytes);
      return {
        kind: "page",
        url: url.href,
        status: response.status,
        contentType: response.headers.get("content-type") ?? "",
        body,
        truncated,
      };
    }
    return { kind: "refused", reason: `more than ${MAX_REDIRECTS} redirects from ${start.href}` };
  } catch (error) {
    if (timedOut()) {
      return {
        kind: "refused",
        reason: `${url.href} did not finish within ${limits.timeoutMs} ms (the time cap)`,
      };
    }
    if (signal.aborted) throw error;
    return {
      kind: "refused",
      reason: `cannot fetch ${url.href}: ${(error as Error)?.message ?? String(error)}`,
    };
  }
}

async function readCapped(
  response: Response,
  maxBytes: number,
): Promise<{ body: Uint8Array; truncated: boolean }> {
  if (!response.body) return { body: new Uint8Array(), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - size;
    if (value.length >= room) {
      chunks.push(value.subarray(0, room));
      size += room;
      truncated = value.length > room || !(await reader.read().then((r) => r.done));
      await reader.cancel().catch(() => {});
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return { body, truncated };
}
