import assert from "node:assert/strict";
import { platform, runCommand } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

// #16 item 8: `trellis completion bash|zsh|fish` prints a script generated from the command table;
// each is loaded into the real shell and asked what `trellis mc<TAB>` and friends complete to.

async function script(shell: string): Promise<string> {
  const { root, env } = await makeSandboxHome();
  const run = await runCliCaptured(["completion", shell], { env, cwd: root });
  assert.equal(run.code, 0, run.stderr);
  const file = `${root}/trellis.${shell}`;
  await platform.fs.writeTextFile(file, run.stdout);
  return file;
}

/** Runs a shell with a HOME of its own: fish creates ~/.config/fish and ~/.local/share/fish there. */
async function sh(cmd: string[]): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "trellis-shell-home-" });
  const result = await runCommand(platform, { cmd, env: { PATH: "/usr/bin:/bin", HOME: home } })
    .finally(() => Deno.remove(home, { recursive: true }));
  assert.equal(result.code, 0, result.stderr);
  return result.stdout;
}

/** bash's programmatic completion: COMP_WORDS/COMP_CWORD set as readline would, then COMPREPLY. */
async function bashCompletes(file: string, line: string): Promise<string[]> {
  const out = await sh([
    "bash",
    "-c",
    `source "$1"; read -ra COMP_WORDS <<< "$2"; [[ $2 == *" " ]] && COMP_WORDS+=("");
     COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _trellis; printf '%s\\n' "\${COMPREPLY[@]}"`,
    "bash",
    file,
    line,
  ]);
  return out.split("\n").filter((w) => w !== "").sort();
}

Deno.test("trellis completion bash completes command names, subcommands, options and choices in real bash (#16 item 8)", async () => {
  const file = await script("bash");
  assert.deepStrictEqual(await bashCompletes(file, "trellis mc"), ["mcp", "mcp-server"]);
  assert.deepStrictEqual(await bashCompletes(file, "trellis mcp a"), ["add"]);
  assert.deepStrictEqual(await bashCompletes(file, "trellis -c model=x mcp add --f"), ["--force"]);
  assert.deepStrictEqual(await bashCompletes(file, "trellis plugin marketplace u"), ["update"]);
  assert.deepStrictEqual(await bashCompletes(file, "trellis completion "), [
    "--help",
    "-h",
    "bash",
    "fish",
    "zsh",
  ]);
  // The default interactive command is hidden from help, and from completion.
  assert.deepStrictEqual(await bashCompletes(file, "trellis inter"), []);
});

Deno.test("trellis completion fish completes with descriptions in real fish (complete -C) (#16 item 8)", async () => {
  const file = await script("fish");
  const complete = async (line: string) =>
    (await sh(["fish", "--no-config", "-c", `source $argv[1]; complete -C $argv[2]`, file, line]))
      .split("\n").filter((l) => l !== "").sort();
  assert.deepStrictEqual(await complete("trellis mc"), [
    "mcp\tmanage and debug MCP servers",
    "mcp-server\tserve Trellis as an MCP server (tools trellis, trellis-reply) over stdio, or HTTP",
  ]);
  assert.deepStrictEqual(await complete("trellis -c model=x mcp add --f"), [
    "--force\treplace a server of the same name",
  ]);
  assert.deepStrictEqual((await complete("trellis hooks t")).map((l) => l.split("\t")[0]), ["test", "trust"]);
});

Deno.test("trellis completion zsh completes through compinit in a real interactive zsh (tmux) (#16 item 8)", async () => {
  const file = await script("zsh");
  const dir = await Deno.makeTempDir({ prefix: "trellis-zsh-" });
  const tmux = (...args: string[]) => sh(["tmux", "-S", `${dir}/sock`, ...args]);
  await Deno.writeTextFile(`${dir}/trellis`, "#!/bin/sh\nexit 0\n");
  await Deno.chmod(`${dir}/trellis`, 0o755);
  await Deno.writeTextFile(
    `${dir}/.zshrc`,
    `autoload -Uz compinit && compinit -u -d ${dir}/.zcompdump\nsource ${file}\nPS1='%% '\nPATH=${dir}:$PATH\n`,
  );
  const screen = async () => await tmux("capture-pane", "-p");
  /** Polls the screen (a person's view) until `pattern` shows, under a generous deadline. */
  const until = async (pattern: RegExp) => {
    const deadline = Date.now() + 30_000;
    while (!pattern.test(await screen())) {
      if (Date.now() > deadline) assert.fail(`screen never matched ${pattern}:\n${await screen()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  try {
    await tmux(
      "new-session",
      "-d",
      "-x",
      "150",
      "-y",
      "30",
      `env -i HOME=${dir} ZDOTDIR=${dir} TERM=xterm PATH=/usr/bin:/bin zsh -i`,
    );
    await until(/^%$/m); // capture-pane drops trailing blanks
    await tmux("send-keys", "trellis mc", "Tab");
    await until(/^% trellis mcp$/m); // the common prefix of mcp and mcp-server
    await tmux("send-keys", "Tab");
    await until(/mcp-server\s+-- serve Trellis as an MCP server/);
    assert.match(await screen(), /^mcp\s+-- manage and debug MCP servers/m);
    await tmux("send-keys", "C-u", "C-l", "trellis -c model=x mcp ad", "Tab");
    await until(/^% trellis -c model=x mcp add$/m);
  } finally {
    await sh(["tmux", "-S", `${dir}/sock`, "kill-server"]).catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("trellis completion refuses a shell it does not know with a usage error", async () => {
  const { root, env } = await makeSandboxHome();
  const run = await runCliCaptured(["completion", "tcsh"], { env, cwd: root });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /Allowed choices are bash, zsh, fish/);
});
