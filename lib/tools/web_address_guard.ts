/**
 * web_fetch never reaches loopback, private, link-local or other non-public addresses (#23 item 3):
 * every host — the first URL's and each redirect's — is resolved and each of its addresses judged
 * by ipaddr.js before a connection is made. Tests name the loopback addresses they may reach
 * (`[tools.web_fetch] allow_private_addresses`).
 */
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

export type AddressVerdict = { ok: true } | { ok: false; reason: string };

/** ipaddr.js's range of every public address, IPv4 and IPv6 alike. */
const PUBLIC_RANGE = "unicast";

export async function judgeHost(hostname: string, allowed: readonly string[]): Promise<AddressVerdict> {
  const host = hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch (error) {
      const code = (error as { code?: string })?.code ?? "lookup failed";
      return { ok: false, reason: `cannot resolve ${host} (${code})` };
    }
  }
  for (const address of addresses) {
    const parsed = ipaddr.process(address);
    const range = parsed.range();
    if (range === PUBLIC_RANGE) continue;
    if (allowed.includes(parsed.toString())) continue;
    const named = address === host ? address : `${host} (${address})`;
    return { ok: false, reason: `${named} is a ${range} address; web_fetch only reaches public addresses` };
  }
  return { ok: true };
}
