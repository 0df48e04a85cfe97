import { digestHex } from "../platform/mod.ts";

export const MAX_TOOL_NAME_BYTES = 64;
const HASH_CHARS = 12;

export interface RawToolIdentity {
  server: string;
  tool: string;
}

/** Every char outside `[A-Za-z0-9_]` becomes `_`; an empty result becomes `_` (codex §4.2). */
export function sanitizeNamePart(text: string): string {
  const clean = text.replace(/[^A-Za-z0-9_]/g, "_");
  return clean === "" ? "_" : clean;
}

function shortHash(input: string): string {
  return digestHex("sha1", input).slice(0, HASH_CHARS);
}

const identityKey = (t: RawToolIdentity) => `${t.server}\0${t.tool}`;

/**
 * Model-facing names `mcp__<server>__<tool>`, unique and ≤ 64 bytes. Candidates are sorted by raw
 * identity first, so the same set of tools always gets the same names. Returns identity key → name.
 */
export function assignToolNames(tools: RawToolIdentity[]): Map<string, string> {
  const sorted = [...new Map(tools.map((t) => [identityKey(t), t])).values()]
    .sort((a, b) => identityKey(a) < identityKey(b) ? -1 : identityKey(a) > identityKey(b) ? 1 : 0);
  const namespaces = namespaceMap(sorted.map((t) => t.server));
  const taken = new Set<string>();
  const names = new Map<string, string>();
  for (const tool of sorted) {
    const namespace = namespaces.get(tool.server)!;
    let name = namespace + sanitizeNamePart(tool.tool);
    for (let attempt = 0; name.length > MAX_TOOL_NAME_BYTES || taken.has(name); attempt++) {
      name = withHashSuffix(
        namespace,
        sanitizeNamePart(tool.tool),
        identityKey(tool) + (attempt ? `\0${attempt}` : ""),
      );
    }
    taken.add(name);
    names.set(identityKey(tool), name);
  }
  return names;
}

function withHashSuffix(namespace: string, tool: string, hashInput: string): string {
  const suffix = `_${shortHash(hashInput)}`;
  if (namespace.length > MAX_TOOL_NAME_BYTES - suffix.length) {
    return namespace.slice(0, MAX_TOOL_NAME_BYTES - suffix.length) + suffix;
  }
  return namespace + tool.slice(0, MAX_TOOL_NAME_BYTES - suffix.length - namespace.length) + suffix;
}

/** Raw servers whose sanitized names collide each get a hashed namespace. */
function namespaceMap(servers: string[]): Map<string, string> {
  const bySanitized = new Map<string, Set<string>>();
  for (const server of servers) {
    const key = sanitizeNamePart(server);
    bySanitized.set(key, (bySanitized.get(key) ?? new Set()).add(server));
  }
  const result = new Map<string, string>();
  for (const [sanitized, raws] of bySanitized) {
    for (const raw of raws) {
      result.set(raw, raws.size > 1 ? `mcp__${sanitized}_${shortHash(raw)}__` : `mcp__${sanitized}__`);
    }
  }
  return result;
}

export function toolIdentityKey(server: string, tool: string): string {
  return identityKey({ server, tool });
}
