import { TrellisError } from "../shared/mod.ts";
import { OAuthStepError } from "./oauth_failure.ts";
import type { Platform } from "../platform/mod.ts";
import { type Client, type FetchLike, loadAuthSdk, type Tool } from "./_sdk.ts";
import { createSdkClient, createTransport } from "./client_factory.ts";
import type { ElicitationResponse } from "./elicitation.ts";
import { type CrossAppAccessContext, crossAppAccessFetch } from "./cross_app_access.ts";
import { oauthFetch } from "./oauth_fetch.ts";
import { codeFromRedirect, TrellisOAuthProvider } from "./oauth_provider.ts";
import { argumentsFromSchema, defaultsFromSchema } from "./schema_values.ts";
import { serverConfigFromTable } from "./server_config.ts";

export interface ProbeOptions {
  platform: Platform;
  cwd: string;
  out(text: string): void;
  /** Call every tool with arguments built from its input schema. */
  callAll?: boolean;
  /** Accept form elicitations with the schema's defaults (otherwise decline). */
  acceptDefaults?: boolean;
  /** Complete an authorization redirect without a browser (reads the code from the Location header). */
  oauthHeadless?: boolean;
  /** `MCP_CONFORMANCE_CONTEXT`: pre-registered client credentials for some auth scenarios. */
  context?: string;
  clientMetadataUrl?: string;
  scopes?: string[];
}

const HEADLESS_REDIRECT = "http://localhost:3000/callback";

/**
 * `trellis mcp probe URL`: connect with the runtime's client (same factory, same OAuth code),
 * print capabilities and every tool, resource, template and prompt, optionally call every tool.
 */
export async function probeServer(url: string, options: ProbeOptions): Promise<{ failures: number }> {
  const server = serverConfigFromTable("probe", { url });
  const client = await createSdkClient(server, {
    elicit: (request) => Promise.resolve(elicitAnswer(request.schema, options.acceptDefaults)),
    warn: (message) => options.out(`warning: ${message}\n`),
    roots: () => [],
    toolsChanged: () => {},
  });
  const fetchFn = await probeFetch(url, options);
  const transport = await createTransport(server, {
    platform: options.platform,
    cwd: options.cwd,
    home: options.cwd,
    warn: (message) => options.out(`warning: ${message}\n`),
    oauthFetch: () => Promise.resolve(fetchFn),
  });
  await client.connect(transport);
  try {
    const info = client.getServerVersion();
    options.out(`server: ${info?.name ?? "?"} ${info?.version ?? ""}\n`);
    options.out(`capabilities: ${JSON.stringify(client.getServerCapabilities() ?? {})}\n`);
    const tools = await listAll(client, options.out);
    return { failures: options.callAll ? await callAll(client, tools, options.out) : 0 };
  } finally {
    await client.close().catch(() => {});
  }
}

function elicitAnswer(schema: Record<string, unknown> | undefined, accept?: boolean): ElicitationResponse {
  return accept && schema ? { action: "accept", content: defaultsFromSchema(schema) } : { action: "decline" };
}

/** Every page of one list method; a repeated cursor ends it with an error (MCP-9). */
async function allPages<T>(
  method: string,
  fetchPage: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
    if (cursor !== undefined && seen.has(cursor)) {
      throw new TrellisError("mcp_protocol", `${method} returned duplicate cursor`, { method, cursor });
    }
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return items;
}

const firstLine = (text: string | undefined) => (text ?? "").split("\n")[0];

/** Lists and prints what the server offers: tools, resources, templates, prompts. */
async function listAll(client: Client, out: (text: string) => void): Promise<Tool[]> {
  const caps = client.getServerCapabilities() ?? {};
  const page = (cursor?: string) => cursor ? { cursor } : undefined;
  const section = (title: string, lines: string[]) =>
    out(`${title} (${lines.length}):\n${lines.map((l) => `  ${l}\n`).join("")}`);
  const tools = caps.tools
    ? await allPages("tools/list", async (c) => {
      const r = await client.listTools(page(c));
      return { items: r.tools, nextCursor: r.nextCursor };
    })
    : [];
  if (caps.tools) {
    section("tools", tools.map((t) => `${t.name}${t.description ? `: ${firstLine(t.description)}` : ""}`));
  }
  if (caps.resources) {
    const resources = await allPages("resources/list", async (c) => {
      const r = await client.listResources(page(c));
      return { items: r.resources, nextCursor: r.nextCursor };
    });
    section("resources", resources.map((r) => `${r.uri}  ${r.name}${r.mimeType ? ` (${r.mimeType})` : ""}`));
    const templates = await allPages("resources/templates/list", async (c) => {
      const r = await client.listResourceTemplates(page(c));
      return { items: r.resourceTemplates, nextCursor: r.nextCursor };
    });
    section("resource templates", templates.map((t) => `${t.uriTemplate}  ${t.name}`));
  }
  if (caps.prompts) {
    const prompts = await allPages("prompts/list", async (c) => {
      const r = await client.listPrompts(page(c));
      return { items: r.prompts, nextCursor: r.nextCursor };
    });
    section(
      "prompts",
      prompts.map((p) =>
        `${p.name}(${(p.arguments ?? []).map((a) => a.required ? a.name : `${a.name}?`).join(", ")})${
          p.description ? `: ${firstLine(p.description)}` : ""
        }`
      ),
    );
  }
  return tools;
}

async function callAll(client: Client, tools: Tool[], out: (text: string) => void): Promise<number> {
  let failures = 0;
  for (const tool of tools) {
    const args = argumentsFromSchema(tool.inputSchema as Record<string, unknown>);
    try {
      const result = await client.callTool({ name: tool.name, arguments: args });
      if (result.isError) failures++;
      out(`call ${tool.name}: ${result.isError ? "error" : "ok"}\n`);
    } catch (error) {
      failures++;
      out(`call ${tool.name}: failed: ${(error as Error).message}\n`);
    }
  }
  return failures;
}

interface ConformanceContext {
  name?: string;
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
}

/** The fetch a probe uses: OAuth (headless or not) for the server, per the conformance context. */
async function probeFetch(url: string, options: ProbeOptions): Promise<FetchLike | undefined> {
  const ctx: ConformanceContext = options.context ? JSON.parse(options.context) : {};
  const scope = options.scopes?.length ? options.scopes.join(" ") : undefined;
  const sdk = await loadAuthSdk();
  if (ctx.name === "auth/client-credentials-basic" && ctx.client_id && ctx.client_secret) {
    const provider = new sdk.ClientCredentialsProvider({
      clientId: ctx.client_id,
      clientSecret: ctx.client_secret,
    });
    return oauthFetch(provider, { serverUrl: url, scope });
  }
  if (ctx.name === "auth/client-credentials-jwt" && ctx.client_id && ctx.private_key_pem) {
    const provider = new sdk.PrivateKeyJwtProvider({
      clientId: ctx.client_id,
      privateKey: ctx.private_key_pem,
      algorithm: ctx.signing_algorithm ?? "ES256",
    });
    return oauthFetch(provider, { serverUrl: url, scope });
  }
  if (ctx.name === "auth/cross-app-access-complete-flow") {
    return crossAppAccessFetch(url, ctx as unknown as CrossAppAccessContext);
  }
  if (!options.oauthHeadless) return undefined;
  const provider = new TrellisOAuthProvider({
    server: "probe",
    redirectUrl: HEADLESS_REDIRECT,
    initial: { url },
    ...(ctx.client_id ? { client: { client_id: ctx.client_id, client_secret: ctx.client_secret } } : {}),
    ...(options.clientMetadataUrl ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
    authorize: headlessAuthorize,
  });
  return oauthFetch(provider, { serverUrl: url, scope });
}

/** Follows the authorization URL without a browser: the code is in the redirect's Location. */
async function headlessAuthorize(url: URL): Promise<string> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (!location) {
    throw new OAuthStepError(`the authorization endpoint did not redirect (HTTP ${response.status})`, {
      url: url.href,
    });
  }
  return codeFromRedirect(new URL(location, url));
}
