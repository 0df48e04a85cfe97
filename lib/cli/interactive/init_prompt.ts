/**
 * The prompt `/init` sends, in the spirit of Codex's (its /init asks the model to study the
 * repository and write a short contributor guide named AGENTS.md); worded for Trellis.
 */
export const INIT_PROMPT =
  `Write a file named AGENTS.md at the root of this repository: a short guide for people and coding agents who contribute to it.

First study the repository: its layout, build and test commands (package manifests, Makefiles, CI files), code style (formatter and linter settings), how tests are organised, and how commits are written (recent git log). Then write AGENTS.md:

- Title it "Repository Guidelines"; use Markdown headings; keep it between 200 and 400 words.
- Cover, where the repository shows them: project structure and where modules live; the commands to build, test and run it, each with a short explanation; coding style and naming; how to write and run tests; commit and pull request conventions; configuration or security notes a contributor needs.
- Be specific to this repository: real paths, real commands, real examples. Leave out anything you could not confirm.

Do not change any other file.`;
