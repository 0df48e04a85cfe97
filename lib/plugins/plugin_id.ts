/**
 * Plugin identity `<plugin>@<marketplace>` (PL-5): it names the install dir, the data dir, MCP
 * provenance, hook keys and the skill namespace, so it is validated before any path is built from it.
 */

export interface PluginId {
  plugin: string;
  marketplace: string;
  /** `<plugin>@<marketplace>`. */
  key: string;
}

const SEGMENT = /^[A-Za-z0-9_-]+$/;
// Plugin names may use "." between non-empty parts (newer Codex), never as a leading or double dot.
const PLUGIN_NAME = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

export function isValidPluginName(name: string): boolean {
  return PLUGIN_NAME.test(name);
}

export function isValidMarketplaceName(name: string): boolean {
  return SEGMENT.test(name);
}

/** Splits on the last `@`; null when either part is empty or has characters outside the allowed set. */
export function parsePluginId(key: string): PluginId | null {
  const at = key.lastIndexOf("@");
  if (at <= 0 || at === key.length - 1) return null;
  const plugin = key.slice(0, at);
  const marketplace = key.slice(at + 1);
  if (!isValidPluginName(plugin) || !isValidMarketplaceName(marketplace)) return null;
  return { plugin, marketplace, key };
}

export function invalidPluginKeyMessage(key: string): string {
  return `invalid plugin key \`${key}\`; expected <plugin>@<marketplace>`;
}

/** Version directory names: `[A-Za-z0-9._+-]`, never `.` or `..`. */
export function isValidVersionSegment(version: string): boolean {
  return /^[A-Za-z0-9._+-]+$/.test(version) && version !== "." && version !== "..";
}
