/** A temp root with workspace, HOME, TRELLIS_HOME, isolated /etc and TMPDIR, and fixture-model flags. */
export interface E2eSetup {
  root: string;
  workspace: string;
  env: Record<string, string>;
  flags: (url: string) => string[];
}

export async function e2eSetup(): Promise<E2eSetup> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "trellis-e2e-" }));
  const workspace = `${root}/workspace`;
  for (const dir of [workspace, `${root}/home/.trellis`, `${root}/tmp`, `${root}/etc`]) {
    await Deno.mkdir(dir, { recursive: true });
  }
  // As Trellis makes it (#20 item 13): a 0755 one would be tightened, with a warning on stderr.
  await Deno.chmod(`${root}/home/.trellis`, 0o700);
  await Deno.writeTextFile(`${workspace}/notes.md`, "# Notes\n- TODO: ship\n");
  return {
    root,
    workspace,
    // TMPDIR inside the root: the temp dir is a writable root, so /tmp itself must not be it.
    env: {
      HOME: `${root}/home`,
      TRELLIS_HOME: `${root}/home/.trellis`,
      TRELLIS_SYSTEM_DIR: `${root}/etc`,
      TMPDIR: `${root}/tmp`,
    },
    flags: (url) => [
      "-c",
      "model_provider=fixture",
      "-c",
      `model_providers.fixture.base_url=${JSON.stringify(url)}`,
      "-m",
      "fixture-model",
    ],
  };
}

export function modelFixture(name: string): string {
  return new URL(`../../fixtures/models/${name}.yaml`, import.meta.url).pathname;
}
