// Run by embedding_test.ts in a child process with a sandbox HOME: prints what the library face
// reports about the current directory's extensions, as an embedder would read it.
import { Trellis } from "../../mod.ts";

const trellis = await Trellis.open({ config: Deno.args });
console.log(JSON.stringify({
  cwd: trellis.cwd,
  home: trellis.home,
  projectTrusted: trellis.projectTrusted,
  model: trellis.config().model ?? null,
  messages: trellis.configMessages(),
  mcpServers: await trellis.mcpServers(),
  mcpTools: await trellis.mcpTools(),
  skills: await trellis.skills(),
  hooks: await trellis.hooks(),
  plugins: await trellis.plugins(),
}));
