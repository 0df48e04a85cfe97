/**
 * Installs the npm packages the tasks need (`deno install`), saying so first when node_modules is
 * not there yet: the first run of the README's commands fetches ~300 MB (Bun among them) and would
 * otherwise sit silent for half a minute (issue #21 item 11). Later runs find everything in place
 * and print nothing.
 */
const fresh = await Deno.stat("node_modules/.deno").then(() => false, () => true);
if (fresh) {
  console.error(
    "Installing the npm packages Trellis uses (Bun, the MCP SDK, TOML/YAML parsers, …: about 300 MB " +
      "the first time, usually 20–40 s)…",
  );
}
const { code } = await new Deno.Command(Deno.execPath(), {
  args: ["install", "--quiet", "--allow-scripts=npm:bun"],
  stdout: "inherit",
  stderr: "inherit",
}).output();
if (code !== 0) Deno.exit(code);
