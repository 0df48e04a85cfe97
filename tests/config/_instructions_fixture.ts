import * as path from "node:path";
import { platform } from "../../lib/platform/mod.ts";

export const INSTRUCTIONS_FIXTURE = path.resolve(
  new URL("../../fixtures/instructions", import.meta.url).pathname,
);

/**
 * A temp copy of fixtures/instructions (a fake home with `.trellis/AGENTS.md` and
 * `.claude/CLAUDE.md`, and a repo with AGENTS.md at three levels, an override, a fallback name and
 * CLAUDE.md files with `@path` imports). The repo's `.git` marker is made here: git would not keep
 * a `.git` inside the fixtures.
 */
export async function copyInstructionsFixture(): Promise<{ root: string; home: string; repo: string }> {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-instructions-"));
  await copyTree(INSTRUCTIONS_FIXTURE, root);
  await platform.fs.mkdir(path.join(root, "repo", ".git"));
  // As Trellis makes it (#20 item 13): a 0755 one would be tightened, with a warning on stderr.
  await platform.fs.chmod(path.join(root, "home", ".trellis"), 0o700);
  return { root, home: path.join(root, "home"), repo: path.join(root, "repo") };
}

async function copyTree(from: string, to: string): Promise<void> {
  await platform.fs.mkdir(to);
  for (const entry of await platform.fs.readDir(from)) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory) await copyTree(source, target);
    else await platform.fs.copyFile(source, target);
  }
}
