/**
 * `web_fetch` (Trellis's face, `{url, offset}`) and `WebFetch` (Claude Code's, `{url, prompt,
 * offset}`) (#23 item 3): a page as markdown. The sandbox's network switch decides whether it may
 * run at all; under every policy but `never` a host outside `[tools.web_fetch] allowed_domains`
 * is asked for; private addresses are never reached (web_address_guard.ts). Hooks see WebFetch.
 */
import { describeSchema, memo, z } from "../shared/mod.ts";
import type { ApprovalNeed, ToolResult, ToolRunContext } from "../shared/mod.ts";
import { type BuiltinTool, builtinTool } from "./builtin_tool.ts";
import { htmlToMarkdown } from "./html_markdown.ts";
import type { ToolEnv } from "./tool_env.ts";
import { downloadPage } from "./web_page.ts";

/** Characters of markdown one call returns; `offset` pages on. */
export const WEB_FETCH_PAGE_CHARS = 40_000;

const urlArgument = () =>
  z.string().check(
    z.refine((text) => {
      try {
        const url = new URL(text);
        return url.protocol === "http:" || url.protocol === "https:";
      } catch {
        return false;
      }
    }, "must be an absolute http:// or https:// URL"),
  );
const offsetArgument = () =>
  describeSchema(
    z.optional(z.number().check(z.int(), z.minimum(0))),
    "Character of the page's markdown to start at, to read past the first part (default 0)",
  );

const trellisSchema = memo(() =>
  z.strictObject({
    url: describeSchema(urlArgument(), "The http(s) URL to fetch"),
    offset: offsetArgument(),
  })
);
const claudeSchema = memo(() =>
  z.strictObject({
    url: describeSchema(urlArgument(), "The http(s) URL to fetch"),
    prompt: describeSchema(z.string(), "What to look for in the page"),
    offset: offsetArgument(),
  })
);
type Args = { url: string; prompt?: string; offset?: number };

/** Trellis's face. */
export function webFetchTool(env: ToolEnv): BuiltinTool {
  return builtinTool<Args>({
    name: "web_fetch",
    hookName: "WebFetch",
    hookAliases: ["web_fetch"],
    description:
      "Fetch a public web page or text document and read it as markdown. Long pages come in parts: call again with offset to read on.",
    schema: trellisSchema,
    ...common(env),
    toHookInput: (args) => ({ url: args.url, prompt: args.prompt ?? "", offset: args.offset }),
    fromHookInput: (input) => ({ url: input.url, offset: input.offset }),
  });
}

/** Claude Code's face: `prompt` says what to look for; the page comes back with it for the model to answer. */
export function claudeWebFetchTool(env: ToolEnv): BuiltinTool {
  return builtinTool<Args>({
    name: "WebFetch",
    hookName: "WebFetch",
    description:
      "Fetch a public URL and read its content as markdown together with your prompt about it. Pages behind a login cannot be read; long pages come in parts (offset).",
    schema: claudeSchema,
    ...common(env),
    toHookInput: (args) => ({ url: args.url, prompt: args.prompt, offset: args.offset }),
    fromHookInput: (input) => input,
  });
}

function common(env: ToolEnv) {
  return {
    parallel: true,
    approval: (args: Args) => fetchApproval(env, new URL(args.url).hostname),
    run: (args: Args, ctx: ToolRunContext) => fetchPage(env, args, ctx),
  };
}

/** `example.com` covers `example.com` and `docs.example.com`; a leading `*.` or `.` is the same. */
export function domainAllowed(allowed: readonly string[], hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return allowed.some((entry) => {
    const domain = entry.toLowerCase().replace(/^\*?\./, "").replace(/\.$/, "");
    return domain !== "" && (host === domain || host.endsWith(`.${domain}`));
  });
}

function networkOff(env: ToolEnv): string | undefined {
  const { sandboxMode, networkAccess } = env.profile;
  if (sandboxMode === "danger-full-access" || (sandboxMode === "workspace-write" && networkAccess)) {
    return undefined;
  }
  return sandboxMode === "read-only"
    ? "the sandbox is read-only, without network access"
    : "network access is off in the sandbox (sandbox_workspace_write.network_access = true turns it on)";
}

function fetchApproval(env: ToolEnv, hostname: string): ApprovalNeed {
  const off = networkOff(env);
  if (off) return { kind: "forbidden", reason: `web_fetch refused: ${off}` };
  if (
    env.profile.approvalPolicy === "never" || domainAllowed(env.everyday.webFetch.allowedDomains, hostname)
  ) {
    return { kind: "none" };
  }
  return {
    kind: "required",
    reason: `fetch from ${hostname} (not in [tools.web_fetch] allowed_domains)`,
    subject: { kind: "action", name: `web_fetch ${hostname}`, arguments: { host: hostname } },
    policyOnly: true,
  };
}

async function fetchPage(env: ToolEnv, args: Args, ctx: ToolRunContext): Promise<ToolResult> {
  const off = networkOff(env);
  if (off) return { status: "denied", output: `web_fetch refused: ${off}` };
  const limits = env.everyday.webFetch;
  const page = await downloadPage(
    new URL(args.url),
    limits,
    (host) => fetchApproval(env, host).kind === "none",
    ctx.signal,
  );
  if (page.kind === "refused") return { status: "error", output: `web_fetch refused: ${page.reason}` };
  if (page.kind === "redirect") {
    return {
      status: "success",
      output:
        `${page.from} redirects (${page.status}) to another host: ${page.to}\nFetch that URL to follow it.`,
    };
  }
  const type = page.contentType.split(";")[0].trim().toLowerCase();
  const text = new TextDecoder().decode(page.body);
  let markdown: string;
  if (type === "text/html" || type === "application/xhtml+xml" || (type === "" && /^\s*</.test(text))) {
    markdown = await htmlToMarkdown(text);
  } else if (type.startsWith("text/") || type.endsWith("json") || type.endsWith("xml") || type === "") {
    markdown = text;
  } else {
    return { status: "error", output: `web_fetch: ${page.url} is ${type}, not a text page` };
  }
  const offset = args.offset ?? 0;
  const part = markdown.slice(offset, offset + WEB_FETCH_PAGE_CHARS);
  const rest = markdown.length - offset - part.length;
  const notes = [
    page.truncated ? `[only the first ${limits.maxBytes} bytes of the page were read]` : "",
    rest > 0 ? `[${rest} more characters: call again with offset ${offset + part.length}]` : "",
  ].filter(Boolean);
  const head = [
    `URL: ${page.url}`,
    `Status: ${page.status}`,
    ...(args.prompt ? [`Prompt: ${args.prompt}`] : []),
    "",
  ];
  const output = [...head, part, ...(notes.length ? ["", ...notes] : [])].join("\n");
  return { status: page.status >= 400 ? "error" : "success", output };
}
