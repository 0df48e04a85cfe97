/**
 * Matcher rules of Codex (§2.4): absent, "" or "*" match everything; a matcher made only of
 * `[A-Za-z0-9_|]` is a list of exact alternatives (`Bash` never matches `BashOutput`); anything else
 * is an unanchored regular expression.
 */
export type CompiledMatcher =
  | { kind: "all" }
  | { kind: "exact"; names: string[] }
  | { kind: "regex"; regex: RegExp };

export type MatcherCompileResult = { ok: true; matcher: CompiledMatcher } | { ok: false; error: string };

export function compileMatcher(raw: string | undefined): MatcherCompileResult {
  if (raw === undefined || raw === "" || raw === "*") return { ok: true, matcher: { kind: "all" } };
  if (/^[A-Za-z0-9_|]+$/.test(raw)) {
    return { ok: true, matcher: { kind: "exact", names: raw.split("|").filter((n) => n !== "") } };
  }
  try {
    return { ok: true, matcher: { kind: "regex", regex: new RegExp(raw) } };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** True when any of `values` (a tool's canonical name and its aliases, a source, a trigger) matches. */
export function matcherMatches(matcher: CompiledMatcher, values: readonly string[]): boolean {
  switch (matcher.kind) {
    case "all":
      return true;
    case "exact":
      return values.some((v) => matcher.names.includes(v));
    case "regex":
      return values.some((v) => matcher.regex.test(v));
  }
}
