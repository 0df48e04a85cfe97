/**
 * A throw-away copy of the working tree in a temp dir, where mutants are applied one at a time: the
 * working tree is never written, so an interrupted run loses nothing. It holds git's view of the
 * tree (tracked files plus untracked ones not ignored, as they are on disk now, uncommitted edits
 * included); node_modules is a symlink to the original (read only by the tests and the build).
 */
import * as path from "node:path";

export interface ScratchTree {
  dir: string;
  /** Replaces `file`'s content in the copy (relative path). */
  write(file: string, content: string): Promise<void>;
  read(file: string): Promise<string>;
  remove(): Promise<void>;
}

export async function makeScratchTree(root: string): Promise<ScratchTree> {
  const listed = await new Deno.Command("git", {
    args: ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!listed.success) {
    throw new Error(`git ls-files failed in ${root}: ${new TextDecoder().decode(listed.stderr).trim()}`);
  }
  const files = new TextDecoder().decode(listed.stdout).split("\0").filter(Boolean);
  const dir = await Deno.makeTempDir({ prefix: "trellis-mutate-" });
  const made = new Set<string>();
  for (const file of files) {
    const from = path.join(root, file);
    const info = await Deno.lstat(from).catch(() => null);
    if (!info) continue; // deleted in the working tree, not yet in the index
    const to = path.join(dir, file);
    const parent = path.dirname(to);
    if (!made.has(parent)) {
      await Deno.mkdir(parent, { recursive: true });
      made.add(parent);
    }
    if (info.isSymlink) await Deno.symlink(await Deno.readLink(from), to);
    else await Deno.copyFile(from, to);
  }
  const modules = path.join(root, "node_modules");
  if (await Deno.stat(modules).catch(() => null)) await Deno.symlink(modules, path.join(dir, "node_modules"));
  return {
    dir,
    write: (file, content) => Deno.writeTextFile(path.join(dir, file), content),
    read: (file) => Deno.readTextFile(path.join(dir, file)),
    remove: () => Deno.remove(dir, { recursive: true }),
  };
}
