/**
 * Runs under Bun (scripts/compile.ts starts it): bundles main.ts into one executable with
 * Bun.build, whose plugin hook the `bun build` command line lacks.
 *
 * usage: bun scripts/compile/bun_build.ts OUTFILE [ENTRY]
 *
 * ENTRY defaults to main.ts; the bench builds its reference programs through here too, so they
 * start with exactly dist/trellis's options.
 */
interface BunBuildPlugin {
  name: string;
  setup(build: {
    onLoad(
      options: { filter: RegExp },
      callback: (args: { path: string }) => Promise<{ contents: string; loader: "js" }>,
    ): void;
  }): void;
}
interface BunBuildApi {
  file(path: string): { text(): Promise<string> };
  spawnSync(cmd: string[], options: { cwd: string }): { exitCode: number; stdout: Uint8Array };
  build(config: Record<string, unknown> & { plugins?: BunBuildPlugin[] }): Promise<{
    success: boolean;
    logs: unknown[];
  }>;
}
const { Bun, process } = globalThis as unknown as {
  Bun: BunBuildApi;
  process: { argv: string[]; env: Record<string, string | undefined>; exit(code: number): never };
};

const [outfile, entry = new URL("../../main.ts", import.meta.url).pathname] = process.argv.slice(2);
if (!outfile) {
  console.error("usage: bun scripts/compile/bun_build.ts OUTFILE [ENTRY]");
  process.exit(2);
}

/**
 * Commander imports node:util and node:child_process at load for help output and external
 * subcommands; its imports are pointed at lazy_commander_builtins.js, which loads them on first use.
 * Bun offers no resolve hook for built-ins, so the two import lines are rewritten as the files load;
 * if a commander upgrade changes them, the build fails here rather than silently losing the saving.
 */
const lazyCommanderBuiltins: BunBuildPlugin = {
  name: "lazy-commander-builtins",
  setup(build) {
    const shim = JSON.stringify(new URL("./lazy_commander_builtins.js", import.meta.url).pathname);
    build.onLoad({ filter: /[\\/]commander[\\/]lib[\\/](command|help)\.js$/ }, async ({ path }) => {
      const source = await Bun.file(path).text();
      const rewritten = source.replace(/from 'node:(util|child_process)'/g, `from ${shim}`);
      if (rewritten === source) {
        throw new Error(`${path}: no node:util or node:child_process import to redirect`);
      }
      return { contents: rewritten, loader: "js" };
    });
  },
};

/**
 * The commit `trellis --version` names: $TRELLIS_BUILD_COMMIT when set (a CI build of a tarball),
 * else `git rev-parse` of the tree being built, with "-dirty" when it has uncommitted changes.
 */
function buildCommit(): string {
  const given = process.env.TRELLIS_BUILD_COMMIT;
  if (given) return given;
  const git = (...args: string[]) => {
    const run = Bun.spawnSync(["git", ...args], { cwd: new URL("../..", import.meta.url).pathname });
    return run.exitCode === 0 ? new TextDecoder().decode(run.stdout).trim() : null;
  };
  const sha = git("rev-parse", "--short=12", "HEAD");
  if (sha === null) return "unknown";
  return git("status", "--porcelain", "--untracked-files=no") ? `${sha}-dirty` : sha;
}

const result = await Bun.build({
  entrypoints: [entry],
  target: "bun",
  format: "esm",
  // TRELLIS_BUILD_NO_MINIFY=1 keeps function names, for a readable BUN_OPTIONS=--cpu-prof profile.
  minify: !process.env.TRELLIS_BUILD_NO_MINIFY,
  bytecode: true,
  // Chunks are embedded and loaded on first import, so a command never pays for the code of
  // another (`--version` starts as fast as a bare Bun binary).
  splitting: true,
  compile: {
    outfile,
    // A user's project may hold a .env or bunfig.toml meant for their own code; Trellis reads its
    // configuration from config.toml only, and must not take API endpoints or keys from the cwd.
    autoloadDotenv: false,
    autoloadBunfig: false,
    // A CLI run is short and I/O-bound: tiering code up to the JIT 64x later than the default
    // saves more than the JIT would win back (exec turn -18 ms, 200-call turn -120 ms, 1,000-skill
    // listing -30 ms on the 2-core bench machine); long sessions still reach the JIT for hot code.
    jitPolicy: 64,
  },
  // lib/cli/version.ts reads the commit; from the sources it is undefined ("unknown"). The build id
  // (lib/shared/build_id.ts) is new at every build: what one binary cached of its own code's output
  // (a hooks file's parse) is never read by another, however alike their commits.
  define: {
    TRELLIS_BUILD_COMMIT: JSON.stringify(buildCommit()),
    TRELLIS_BUILD_ID: JSON.stringify(crypto.randomUUID()),
  },
  plugins: [lazyCommanderBuiltins],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
