/** The Trellis release (semver). */
export const VERSION = "0.1.0";

// scripts/compile/bun_build.ts replaces this name with the commit it builds (a build-time `define`);
// run from the sources it is not defined at all.
declare const TRELLIS_BUILD_COMMIT: string | undefined;

/** The commit dist/trellis was built from; "unknown" when running from the sources. */
export const COMMIT: string = typeof TRELLIS_BUILD_COMMIT === "string" ? TRELLIS_BUILD_COMMIT : "unknown";

/** What `trellis --version` prints: version, runtime and commit. Dependency-free (main.ts loads it first). */
export function versionLine(runtime: string): string {
  return `trellis ${VERSION} (${runtime}, commit ${COMMIT})`;
}
