import assert from "node:assert/strict";
import { detectImplicitUse, implicitUseKey } from "../../lib/skills/mod.ts";
import { makeTree, skillFile, snapshotOf, userRoot } from "./_helpers.ts";

Deno.test("detectImplicitUse() recognizes skill scripts run by interpreters or directly, and SKILL.md reads (SK-13)", async () => {
  const root = await makeTree({
    "pdf/SKILL.md": skillFile("pdf"),
    "pdf/scripts/fill.py": "",
    "off/SKILL.md": skillFile("off"),
  });
  const snapshot = await snapshotOf([userRoot(root)], {
    rules: [{ name: "off", enabled: false, source: "t" }],
  });
  const name = (c: Parameters<typeof detectImplicitUse>[1]) => detectImplicitUse(snapshot, c)?.name ?? null;
  assert.deepStrictEqual([
    name({ kind: "shell", command: `python3 ${root}/pdf/scripts/fill.py --in a.pdf` }),
    name({ kind: "shell", command: "cd x && ./scripts/fill.py", cwd: `${root}/pdf` }),
    name({ kind: "shell", command: `deno run -A '${root}/pdf/scripts/sub/tool.ts'` }),
    name({ kind: "shell", command: `cat ${root}/pdf/SKILL.md | head` }),
    name({ kind: "read", path: "SKILL.md", cwd: `${root}/pdf` }),
    name({ kind: "shell", command: `python3 ${root}/pdf/other.py` }),
    name({ kind: "read", path: `${root}/off/SKILL.md` }),
  ], ["pdf", "pdf", "pdf", "pdf", "pdf", null, null]);
  const skill = detectImplicitUse(snapshot, { kind: "read", path: `${root}/pdf/SKILL.md` })!;
  assert.deepStrictEqual(implicitUseKey(skill), `user:${root}/pdf/SKILL.md:pdf`);
});

Deno.test("detectImplicitUse() reads a script path quoted mid-word, as the shell does (#16 item 7: shell-quote)", async () => {
  const root = await makeTree({ "pdf/SKILL.md": skillFile("pdf"), "pdf/scripts/fill form.py": "" });
  const snapshot = await snapshotOf([userRoot(root)]);
  const name = (command: string) => detectImplicitUse(snapshot, { kind: "shell", command })?.name ?? null;
  assert.deepStrictEqual([
    name(`python3 ${root}/pdf/scripts/"fill form".py`),
    name(`cd /tmp; python3 ${root}/pdf/scripts/fill\\ form.py`),
    name(`echo hi # python3 ${root}/pdf/scripts/x.py`),
  ], ["pdf", "pdf", null]);
});

Deno.test("detectImplicitUse(): every reader Codex counts (cat, head, tail, less, more, bat, sed, nl) reading a SKILL.md is a use; another program's is not (SK-13)", async () => {
  const root = await makeTree({ "pdf/SKILL.md": skillFile("pdf") });
  const snapshot = await snapshotOf([userRoot(root)]);
  const name = (command: string) => detectImplicitUse(snapshot, { kind: "shell", command })?.name ?? null;
  for (const reader of ["cat", "head", "tail", "less", "more", "bat", "sed", "nl"]) {
    assert.equal(name(`${reader} ${root}/pdf/SKILL.md`), "pdf", reader);
  }
  assert.equal(name(`wc ${root}/pdf/SKILL.md`), null);
});
