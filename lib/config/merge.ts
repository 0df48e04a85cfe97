/** Deep-merges TOML tables (later wins; arrays replace) and records which layer set each leaf. */

export function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

export function mergeInto(
  target: Record<string, unknown>,
  source: Record<string, unknown>,
  label: string,
  provenance: Map<string, string>,
  prefix: string[] = [],
): void {
  for (const [key, value] of Object.entries(source)) {
    const keyPath = [...prefix, key];
    if (isTable(value) && isTable(target[key])) {
      mergeInto(target[key] as Record<string, unknown>, value, label, provenance, keyPath);
    } else if (isTable(value)) {
      const copy: Record<string, unknown> = {};
      target[key] = copy;
      mergeInto(copy, value, label, provenance, keyPath);
    } else {
      target[key] = value;
      provenance.set(formatKeyPath(keyPath), label);
    }
  }
}

export function formatKeyPath(keyPath: (string | number)[]): string {
  return keyPath.map((k) =>
    typeof k === "number" ? `[${k}]` : /^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k)
  ).join(".").replace(/\.\[/g, "[");
}
