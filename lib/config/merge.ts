/** Deep-merges TOML tables (later wins; arrays replace) and records which layer set each leaf. */

export function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

export function mergeInto(
  target: Record<string, unknown>,
  source: Record<string, unknown>,
  label: string,
  provenance: Map<string, string>,
  prefix = "",
): void {
  for (const key of Object.keys(source)) {
    const value = source[key];
    // The key path as formatKeyPath writes it, built one segment at a time: every leaf of every layer
    // is recorded at each start (90 trusted hooks write 90 to 180 `[hooks.state]` leaves).
    const keyPath = prefix === "" ? keySegment(key) : `${prefix}.${keySegment(key)}`;
    if (isTable(value) && isTable(target[key])) {
      mergeInto(target[key] as Record<string, unknown>, value, label, provenance, keyPath);
    } else if (isTable(value)) {
      const copy: Record<string, unknown> = {};
      target[key] = copy;
      mergeInto(copy, value, label, provenance, keyPath);
    } else {
      target[key] = value;
      provenance.set(keyPath, label);
    }
  }
}

/** One key as a TOML key path writes it: bare when it can be, else quoted. */
function keySegment(key: string): string {
  return BARE_KEY.test(key) ? key : JSON.stringify(key);
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** `mcp_servers.docs.args[0]`, `hooks.state."/h/hooks.json:PreToolUse:0:0".trusted_hash`. */
export function formatKeyPath(keyPath: (string | number)[]): string {
  let out = "";
  for (const k of keyPath) {
    if (typeof k === "number") out += `[${k}]`;
    else out += out === "" ? keySegment(k) : `.${keySegment(k)}`;
  }
  return out;
}
