import { z } from "../../shared/mod.ts";

/**
 * `[tools]` (#23 item 3): Codex's `web_search` and `view_image` switches, and Trellis's
 * `[tools.web_fetch]`.
 */
const toolsSchema = () =>
  z.strictObject({
    /**
     * The provider's hosted web search: `true`/"live" searches the web, "cached" only the
     * provider's index, `false`/"disabled" (the default) declares nothing.
     */
    web_search: z.optional(z.union([z.boolean(), z.enum(["live", "cached", "disabled"])])),
    /** Codex's: the view_image tool (default true). */
    view_image: z.optional(z.boolean()),
    web_fetch: z.optional(z.strictObject({
      /** Hosts fetched without asking under on-request/untrusted (`example.com` also covers its subdomains). */
      allowed_domains: z.optional(z.array(z.string())),
      /** The most bytes read of one response (default 5 MiB). */
      max_bytes: z.optional(z.number().check(z.int(), z.positive())),
      /** How long one fetch may take, redirects included (default 30 000 ms). */
      timeout_ms: z.optional(z.number().check(z.int(), z.positive())),
      /** Tests only: these loopback/private addresses (e.g. "127.0.0.1") may be fetched (default none). */
      allow_private_addresses: z.optional(z.array(z.string())),
    })),
  });

export const toolsSections = {
  tools: toolsSchema,
};
