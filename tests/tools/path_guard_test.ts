import assert from "node:assert/strict";
import fc from "fast-check";
import { canonicalPath, platform } from "../../lib/platform/mod.ts";
import { checkPathAccess, isWithin } from "../../lib/tools/mod.ts";
import { call, makeWorkspace, profileFor, readIfExists, removeWorkspace, toolsFor } from "./_workspace.ts";

Deno.test("write_file() is denied and the target untouched when the path escapes through ../", async () => {
  const box = await makeWorkspace();
  const { write_file } = toolsFor(box);
  const got = await call(write_file, box, { path: "src/../../outside/secret.txt", content: "pwned" });
  assert.deepStrictEqual(got, {
    approval: {
      kind: "required",
      reason: `writing "${box.outside}/secret.txt" outside the writable roots`,
      subject: { kind: "path", path: `${box.outside}/secret.txt`, access: "write" },
    },
    result: {
      status: "denied",
      output:
        `Cannot write "src/../../outside/secret.txt": writing "${box.outside}/secret.txt" outside the writable roots requires approval`,
    },
  });
  assert.equal(await readIfExists(`${box.outside}/secret.txt`), "secret\n");
  await removeWorkspace(box);
});

Deno.test("edit_file() is denied and the target untouched when the path is absolute outside the roots", async () => {
  const box = await makeWorkspace();
  const { edit_file } = toolsFor(box);
  const got = await call(edit_file, box, {
    path: `${box.outside}/secret.txt`,
    old_string: "secret",
    new_string: "x",
  });
  assert.deepStrictEqual(got.approval, {
    kind: "required",
    reason: `writing "${box.outside}/secret.txt" outside the writable roots`,
    subject: { kind: "path", path: `${box.outside}/secret.txt`, access: "write" },
  });
  assert.equal(got.result.status, "denied");
  assert.equal(await readIfExists(`${box.outside}/secret.txt`), "secret\n");
  await removeWorkspace(box);
});

Deno.test("write_file() is denied and the target untouched when a symlink in the workspace points out", async () => {
  const box = await makeWorkspace();
  await platform.fs.symlink(`${box.outside}/secret.txt`, `${box.ws}/link.txt`);
  await platform.fs.symlink(box.outside, `${box.ws}/linkdir`);
  await platform.fs.symlink(`${box.outside}/not-yet.txt`, `${box.ws}/dangling.txt`);
  const { write_file } = toolsFor(box);
  const results = [];
  for (const path of ["link.txt", "linkdir/secret.txt", "linkdir/new.txt", "dangling.txt"]) {
    results.push((await call(write_file, box, { path, content: "pwned" })).approval);
  }
  assert.deepStrictEqual(results, [
    {
      kind: "required",
      reason: `writing "${box.outside}/secret.txt" outside the writable roots`,
      subject: { kind: "path", path: `${box.outside}/secret.txt`, access: "write" },
    },
    {
      kind: "required",
      reason: `writing "${box.outside}/secret.txt" outside the writable roots`,
      subject: { kind: "path", path: `${box.outside}/secret.txt`, access: "write" },
    },
    {
      kind: "required",
      reason: `writing "${box.outside}/new.txt" outside the writable roots`,
      subject: { kind: "path", path: `${box.outside}/new.txt`, access: "write" },
    },
    {
      kind: "required",
      reason: `writing "${box.outside}/not-yet.txt" outside the writable roots`,
      subject: { kind: "path", path: `${box.outside}/not-yet.txt`, access: "write" },
    },
  ]);
  assert.deepStrictEqual(await platform.fs.readDir(box.outside), [
    { name: "secret.txt", isFile: true, isDirectory: false, isSymlink: false },
  ]);
  assert.equal(await readIfExists(`${box.outside}/secret.txt`), "secret\n");
  await removeWorkspace(box);
});

Deno.test("write_file() writes through a symlink and keeps it when the link points inside the roots", async () => {
  const box = await makeWorkspace();
  await platform.fs.symlink(`${box.ws}/README.md`, `${box.ws}/readme-link`);
  const { write_file } = toolsFor(box);
  const got = await call(write_file, box, { path: "readme-link", content: "via link" });
  assert.deepStrictEqual(got.result, {
    status: "success",
    output: `Overwrote ${box.ws}/README.md (8 bytes)`,
  });
  assert.equal((await platform.fs.lstat(`${box.ws}/readme-link`))!.isSymlink, true);
  assert.equal(await readIfExists(`${box.ws}/README.md`), "via link");
  await removeWorkspace(box);
});

Deno.test("checkPathAccess() resolves a not-yet-existing path through its deepest existing ancestor", async () => {
  const box = await makeWorkspace();
  await platform.fs.symlink(box.outside, `${box.ws}/out`);
  const access = checkPathAccess(profileFor(box), "out/a/b/../c.txt", "write");
  assert.deepStrictEqual(access, {
    requested: "out/a/b/../c.txt",
    path: `${box.outside}/a/c.txt`,
    need: {
      kind: "required",
      reason: `writing "${box.outside}/a/c.txt" outside the writable roots`,
      subject: { kind: "path", path: `${box.outside}/a/c.txt`, access: "write" },
    },
  });
  await removeWorkspace(box);
});

Deno.test("isWithin() treats a sibling with a common prefix as outside", () => {
  assert.deepStrictEqual(
    [
      isWithin("/a/ws", "/a/ws"),
      isWithin("/a/ws", "/a/ws/x"),
      isWithin("/a/ws", "/a/ws2/x"),
      isWithin("/", "/x"),
    ],
    [true, true, false, true],
  );
});

const SEGMENTS = ["a", "b", "..", ".", "in", "out", "up", "loop", "new"];

/**
 * A workspace with links that stay inside (`in`), leave (`out`, `up`) or loop; random paths over them
 * must never get approval "none" while actually landing outside the workspace.
 */
Deno.test("checkPathAccess() never approves a write outside the roots for random ../ and symlink compositions", async () => {
  const box = await makeWorkspace();
  await platform.fs.mkdir(`${box.ws}/a/b`);
  await platform.fs.symlink(`${box.ws}/a`, `${box.ws}/in`);
  await platform.fs.symlink(box.outside, `${box.ws}/a/out`);
  await platform.fs.symlink("../..", `${box.ws}/a/b/up`);
  await platform.fs.symlink("loop", `${box.ws}/loop`);
  const profile = profileFor(box, { writableRoots: [box.ws] });
  const { write_file } = toolsFor(box, { profile: { writableRoots: [box.ws] } });
  let counter = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(...SEGMENTS), { minLength: 0, maxLength: 7 }),
      async (segments) => {
        const path = [...segments, `f${counter++}.txt`].join("/");
        const access = checkPathAccess(profile, path, "write");
        assert.equal(access.path, canonicalPath(access.path), "the checked path is canonical");
        if (access.need.kind !== "none") return;
        assert.ok(isWithin(box.ws, access.path), `${path} → ${access.path}`);
        // Bypass the run-time re-check: approval alone must be enough to keep the write inside.
        const args = write_file.parseArguments({ path, content: "x" });
        const ctx = {
          callId: "c",
          cwd: box.ws,
          signal: new AbortController().signal,
          emit: () => {},
          escalated: true,
        };
        await write_file.run(args, ctx);
      },
    ),
    { numRuns: 100 },
  );
  assert.deepStrictEqual((await platform.fs.readDir(box.outside)).map((e) => e.name), ["secret.txt"]);
  assert.deepStrictEqual((await platform.fs.readDir(box.root)).map((e) => e.name).sort(), [
    "outside",
    "tmp",
    "ws",
  ]);
  assert.equal(await readIfExists(`${box.outside}/secret.txt`), "secret\n");
  await removeWorkspace(box);
});

Deno.test("canonicalPath() returns an absolute path without . or .. segments for any relative input", () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom("x", "..", ".", "y", ""), { maxLength: 10 }), (segments) => {
      const result = canonicalPath(`/nonexistent-root/${segments.join("/")}`);
      assert.ok(result.startsWith("/"));
      assert.ok(!result.split("/").some((s) => s === "." || s === ".."), result);
    }),
  );
});
