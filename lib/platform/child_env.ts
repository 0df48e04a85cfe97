/**
 * A spawned process gets an allow-listed environment, not all of the parent's, plus what its
 * configuration names (the MCP SDK's DEFAULT_INHERITED_ENV_VARS, extended with locale and temp vars).
 */
export const DEFAULT_INHERITED_ENV = [
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TMPDIR",
  "TZ",
] as const;

export function childEnv(
  parent: Record<string, string | undefined>,
  options: { passThrough?: string[]; set?: Record<string, string> } = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...DEFAULT_INHERITED_ENV, ...(options.passThrough ?? [])]) {
    const value = parent[name];
    // Bash exported functions start with "()": never pass them on (same rule as the MCP SDK).
    if (value !== undefined && !value.startsWith("()")) env[name] = value;
  }
  return { ...env, ...(options.set ?? {}) };
}
