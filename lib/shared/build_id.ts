// Defined by scripts/compile/bun_build.ts (a random id per build); undefined when run from the sources.
declare const TRELLIS_BUILD_ID: string | undefined;

/**
 * This build's id: what a cache of derived results (a hooks file's parse) keys on, so a new binary
 * never reads what an older one's code produced. Undefined from the sources, where such caches are
 * off unless a caller (a test) names an id of its own.
 */
export const BUILD_ID: string | undefined = typeof TRELLIS_BUILD_ID === "string"
  ? TRELLIS_BUILD_ID
  : undefined;
