/**
 * Checkpoint figures (#25 item 2): what recording a turn's checkpoint adds to a 1 MB `edit_file`
 * (the same edit without a recorder, in the same run, is the reference), and a rewind of 100 edited
 * files. Run alone: `deno run -A scripts/bench/checkpoints.ts`.
 */
import { applyRewind, CheckpointStore, planRewind, SessionCheckpoints } from "../../lib/checkpoints/mod.ts";
import { detectSandbox, platform } from "../../lib/platform/mod.ts";
import { discardEvents, type FileChangeRecorder } from "../../lib/shared/mod.ts";
import { createBuiltinTools, type PermissionProfile } from "../../lib/tools/mod.ts";
import { median } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const RUNS = 40;
const fs = platform.fs;

function profileFor(ws: string): PermissionProfile {
  return {
    workspace: ws,
    writableRoots: [ws],
    readableRoots: [],
    protectedPaths: [],
    sandboxMode: "workspace-write",
    approvalPolicy: "never",
  } as unknown as PermissionProfile;
}

/** Times the recorder's calls: the checkpoint itself, apart from the edit around it. */
function timedRecorder(
  inner: SessionCheckpoints,
  spent: number[],
): FileChangeRecorder & { beginTurn(n: number): void } {
  return {
    beginTurn: (n) => inner.beginTurn(n),
    async beforeChange(path, current) {
      const started = performance.now();
      await inner.beforeChange(path, current);
      spent.push(performance.now() - started);
    },
    async afterChange(path, written) {
      const started = performance.now();
      await inner.afterChange(path, written);
      spent[spent.length - 1] += performance.now() - started;
    },
    aroundCommand: (command, cwd, run) => inner.aroundCommand(command, cwd, run),
  };
}

/** Median ms of RUNS edits of a 1 MB file, each a new content (so each checkpoint stores a new blob). */
async function timeEdits(
  ws: string,
  recorder: (FileChangeRecorder & { beginTurn(n: number): void }) | null,
): Promise<number> {
  const file = `${ws}/big.txt`;
  const line = "x".repeat(1023) + "\n";
  await fs.writeTextFile(file, "MARK-0\n" + line.repeat(1023));
  const tools = createBuiltinTools({
    platform,
    profile: profileFor(ws),
    sandbox: await detectSandbox(platform),
    ...(recorder ? { changes: recorder } : {}),
  });
  const edit = tools.find((t) => t.name === "edit_file")!;
  const ctx = {
    callId: "c",
    cwd: ws,
    signal: new AbortController().signal,
    emit: discardEvents,
    escalated: false,
  };
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    recorder?.beginTurn(i + 1);
    const args = edit.parseArguments({
      path: "big.txt",
      old_string: `MARK-${i}\n`,
      new_string: `MARK-${i + 1}\n`,
    });
    const started = performance.now();
    const result = await edit.run(args, ctx);
    samples.push(performance.now() - started);
    if (result.status !== "success") throw new TypeError(`edit failed: ${result.output}`);
  }
  return median(samples);
}

/**
 * Median ms of rewinding 100 files (10 KB each) that one turn edited, and of the reference: the
 * same 100 files written back by temp file and rename alone (what the rewind cannot do without).
 */
async function timeRewinds(root: string): Promise<{ rewind: number; reference: number }> {
  const ws = `${root}/many`;
  await fs.mkdir(ws);
  const store = new CheckpointStore(fs, `${root}/store-many`);
  const recorder = new SessionCheckpoints({ fs, store, shell: "untracked", writableRoots: [ws] });
  const files = Array.from({ length: 100 }, (_, i) => `${ws}/file${i}.ts`);
  const samples: number[] = [];
  const reference: number[] = [];
  for (let run = 0; run < 10; run++) {
    const bytes = new TextEncoder().encode(`// reference ${run}\n`.repeat(400));
    const before = performance.now();
    for (const file of files) fs.sync.writeFileAtomic(file, bytes, { mode: 0o644 });
    reference.push(performance.now() - before);
    for (const [i, file] of files.entries()) {
      await fs.writeTextFile(file, `// ${i} before ${run}\n`.repeat(400));
    }
    recorder.beginTurn(run + 1);
    for (const file of files) {
      await recorder.beforeChange(file);
      const after = `// after ${run}\n`.repeat(400);
      await fs.writeFileAtomic(file, after);
      await recorder.afterChange(file, after);
    }
    const started = performance.now();
    const plan = planRewind(fs, await store.records(), run + 1);
    const outcome = await applyRewind(fs, store, plan);
    samples.push(performance.now() - started);
    if (outcome.restored.length !== 100) throw new TypeError(`rewound ${outcome.restored.length} files`);
  }
  await recorder.close();
  return { rewind: median(samples), reference: median(reference) };
}

export async function bench(): Promise<BenchRow[]> {
  const root = await fs.realPath(await fs.makeTempDir("trellis-bench-checkpoints-"));
  try {
    await fs.mkdir(`${root}/plain`);
    await fs.mkdir(`${root}/recorded`);
    const plain = await timeEdits(`${root}/plain`, null);
    const store = new CheckpointStore(fs, `${root}/store`);
    const recorder = new SessionCheckpoints({
      fs,
      store,
      shell: "untracked",
      writableRoots: [`${root}/recorded`],
    });
    const spent: number[] = [];
    const recorded = await timeEdits(`${root}/recorded`, timedRecorder(recorder, spent));
    await recorder.close();
    if (spent.length !== RUNS) throw new TypeError(`${spent.length} checkpoints recorded, not ${RUNS}`);
    const checkpoint = median(spent);
    const { rewind, reference } = await timeRewinds(root);
    const round = (n: number) => Math.round(n * 1000) / 1000;
    return [
      {
        name: `checkpoint of a 1 MB edit_file (the recorder's calls; the whole edit ${round(recorded)} ms, ${
          round(plain)
        } ms unrecorded)`,
        value: round(checkpoint),
        unit: "ms",
        target: "<= 2 ms",
        pass: checkpoint <= 2,
      },
      {
        name: `rewind of 100 edited files (10 KB each; their bare temp-then-rename writes alone ${
          round(reference)
        } ms, ×${round(rewind / reference)})`,
        value: round(rewind),
        unit: "ms",
        target: "<= 200 ms",
        pass: rewind <= 200,
      },
    ];
  } finally {
    await fs.remove(root, { recursive: true });
  }
}

if (import.meta.main) console.log(await bench());
