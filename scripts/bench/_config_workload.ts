/**
 * N concurrent config edits as separate trellis processes against one config.toml: a third each of
 * `project trust DIR_i`, `hooks trust KEY_i` and `mcp add s_i`, every one writing its own key, so a
 * lost edit shows as a missing key. Shared by tests/e2e/config_edits.e2e.ts and the bench.
 */
import { parse } from "smol-toml";

export interface ConfigWorkload {
  env: Record<string, string>;
  cwd: string;
  file: string;
  /** argv (after the binary) of each process. */
  commands: string[][];
  /** Keys every run must leave in the config: which are missing. */
  missing(text: string): string[];
}

export async function prepareConfigWorkload(root: string, n: number): Promise<ConfigWorkload> {
  const home = `${root}/home/.trellis`;
  await Deno.mkdir(home, { recursive: true });
  const file = `${home}/config.toml`;
  await Deno.writeTextFile(file, '# my settings: keep this comment\nmodel = "gpt-5"\n');
  const hooksFile = `${home}/hooks.json`;
  const handlers = Array.from({ length: n }, (_, i) => ({ type: "command", command: `echo hook-${i}` }));
  await Deno.writeTextFile(hooksFile, JSON.stringify({ hooks: { Stop: [{ hooks: handlers }] } }));
  const commands: string[][] = [];
  const dirs: string[] = [];
  const keys: string[] = [];
  const servers: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 3 === 0) {
      const dir = `${root}/projects/p${i}`;
      await Deno.mkdir(dir, { recursive: true });
      dirs.push(dir);
      commands.push(["project", "trust", dir]);
    } else if (i % 3 === 1) {
      const key = `${hooksFile}:stop:0:${i}`;
      keys.push(key);
      commands.push(["hooks", "trust", key]);
    } else {
      servers.push(`s${i}`);
      commands.push(["mcp", "add", `s${i}`, "--env", `TOKEN=t${i}`, "--", "server", `--n=${i}`]);
    }
  }
  return {
    env: { HOME: `${root}/home`, TRELLIS_HOME: home, TRELLIS_SYSTEM_DIR: `${root}/etc`, TMPDIR: root },
    cwd: root,
    file,
    commands,
    missing(text) {
      // deno-lint-ignore no-explicit-any
      const doc = parse(text) as any;
      const lost = [
        ...dirs.filter((d) => doc.projects?.[d]?.trust_level !== "trusted"),
        ...keys.filter((k) => typeof doc.hooks?.state?.[k]?.trusted_hash !== "string"),
        ...servers.filter((s) => doc.mcp_servers?.[s]?.command !== "server"),
      ];
      if (!text.startsWith("# my settings: keep this comment\n") || doc.model !== "gpt-5") {
        lost.push("(the original)");
      }
      return lost;
    },
  };
}
