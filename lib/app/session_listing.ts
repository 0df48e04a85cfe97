import * as path from "node:path";
import { isSessionId, isSummaryMessage } from "../loop/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import { UsageError } from "../shared/mod.ts";
import { INSTRUCTIONS_HEADING } from "./project_instructions_message.ts";

/** One recorded session as the picker, `trellis sessions` and `resume --last` see it. */
export interface SessionSummary {
  id: string;
  file: string;
  /** When the transcript was last written (ms since the epoch). */
  modified: number;
  created: string;
  /** The directory it was recorded in (its workspace). */
  cwd: string;
  /** The first prompt a person typed ("" when none yet). */
  firstPrompt: string;
  /** A line of the transcript's head that is not JSON (cut by a crash), named for a warning. */
  warning?: string;
  /**
   * Its subagents' transcripts (`<id>-agentN.jsonl`, #22 item 3), in spawn order: the tree a
   * resume restores (`resume_agent` reads a child back from its transcript).
   */
  agents: { id: string; agentType: string }[];
}

/** Enough of a transcript for its header line. */
const META_BYTES = 4 * 1024;
/** Enough of a transcript to find its first typed prompt after the injected instructions. */
const HEAD_BYTES = 64 * 1024;

/**
 * Whether a user-role message is a prompt a person typed, not one Trellis added: the AGENTS.md /
 * CLAUDE.md message, a skill, an attachment or hook prompt (`<…>`), a compaction summary (#21 item 3).
 */
export function isTypedPrompt(content: string): boolean {
  return !content.startsWith("<") && !content.startsWith(INSTRUCTIONS_HEADING) && !isSummaryMessage(content);
}

/**
 * The recorded sessions in `dir`, newest first: those recorded in `cwd` unless `cwd` is null, at most
 * `limit` of them (`total` counts all that matched). Only each file's head is read.
 */
export async function listSessions(
  fs: FileSystem,
  dir: string,
  options: { cwd: string | null; limit?: number },
): Promise<{ sessions: SessionSummary[]; total: number }> {
  const entries = await fs.readDir(dir).catch(() => []);
  const found: { id: string; file: string; modified: number }[] = [];
  const children = new Map<string, { id: string; n: number }[]>();
  for (const entry of entries) {
    if (!entry.isFile || !entry.name.endsWith(".jsonl")) continue;
    const id = entry.name.slice(0, -".jsonl".length);
    const child = /^(.+)-agent(\d+)$/.exec(id);
    if (child && isSessionId(child[1])) {
      children.set(child[1], [...children.get(child[1]) ?? [], { id, n: Number(child[2]) }]);
      continue;
    }
    if (!isSessionId(id)) continue;
    const file = path.join(dir, entry.name);
    const info = await fs.lstat(file);
    if (info?.isFile) found.push({ id, file, modified: info.mtimeMs });
  }
  found.sort((a, b) => b.modified - a.modified);
  const limit = options.limit ?? Infinity;
  const sessions: SessionSummary[] = [];
  let total = 0;
  for (const { id, file, modified } of found) {
    if (options.cwd !== null || sessions.length < limit) {
      const meta = parseHead(await readHead(fs, file, META_BYTES), true);
      if (options.cwd !== null && meta.cwd !== options.cwd) continue;
    }
    total++;
    if (sessions.length >= limit) continue;
    const agents = await Promise.all(
      (children.get(id) ?? []).sort((a, b) => a.n - b.n).map(async (c) => ({
        id: c.id,
        agentType: agentTypeOf((await readHead(fs, path.join(dir, `${c.id}.jsonl`), META_BYTES)).text),
      })),
    );
    sessions.push({ id, file, modified, ...parseHead(await readHead(fs, file, HEAD_BYTES), false), agents });
  }
  return { sessions, total };
}

/**
 * The session `resume` continues: `id` as given, or for "--last" the newest recorded in `cwd` (any
 * directory when `all`), as Codex picks it; with the directory it was recorded in.
 */
export async function resolveResume(
  fs: FileSystem,
  dir: string,
  request: { id: string } | { last: true; cwd: string; all: boolean },
): Promise<{ id: string; cwd: string }> {
  if ("id" in request) {
    const file = path.join(dir, `${request.id}.jsonl`);
    return { id: request.id, cwd: parseHead(await readHead(fs, file, META_BYTES), true).cwd };
  }
  const { sessions } = await listSessions(fs, dir, { cwd: request.all ? null : request.cwd, limit: 1 });
  const newest = sessions[0];
  if (!newest) {
    throw new UsageError(
      request.all
        ? `Cannot resume the last session: no sessions in ${dir}`
        : `Cannot resume the last session: none was recorded in ${request.cwd}; \`trellis resume --last --all\` takes the newest of any directory`,
    );
  }
  return { id: newest.id, cwd: newest.cwd };
}

async function readHead(fs: FileSystem, file: string, bytes: number): Promise<Head> {
  const data = await fs.readFilePrefix(file, bytes).catch(() => new Uint8Array());
  return { text: new TextDecoder().decode(data), truncated: data.length >= bytes };
}

interface Head {
  text: string;
  /** The file goes on past `text`: its last line may be cut by the read, not by a crash. */
  truncated: boolean;
}

/** A child transcript's agent type, from its header's `parent` ("" when the head is unreadable). */
function agentTypeOf(head: string): string {
  try {
    const meta = JSON.parse(head.split("\n")[0]) as { meta?: { parent?: { agentType?: unknown } } };
    return String(meta.meta?.parent?.agentType ?? "");
  } catch {
    return "";
  }
}

function parseHead(
  { text: head, truncated }: Head,
  metaOnly: boolean,
): { created: string; cwd: string; firstPrompt: string; warning?: string } {
  let created = "";
  let cwd = "";
  let firstPrompt = "";
  let warning: string | undefined;
  const lines = head.split("\n");
  const judged = truncated ? lines.length - 1 : lines.length;
  for (let n = 0; n < judged; n++) {
    const line = lines[n];
    if (!line.trim()) continue;
    let parsed: {
      type?: string;
      meta?: { created?: string; cwd?: string };
      item?: { type?: string; role?: string; content?: unknown };
    };
    try {
      parsed = JSON.parse(line);
    } catch {
      warning ??= `line ${n + 1} is not JSON (cut short?); skipped`;
      continue;
    }
    if (parsed.type === "session_meta") {
      created = String(parsed.meta?.created ?? "");
      cwd = String(parsed.meta?.cwd ?? "");
      if (metaOnly) break;
    }
    const item = parsed.item;
    if (
      parsed.type === "item" && item?.type === "message" && item.role === "user" &&
      typeof item.content === "string" && isTypedPrompt(item.content)
    ) {
      firstPrompt = item.content;
      break;
    }
  }
  return { created, cwd, firstPrompt, ...(warning ? { warning } : {}) };
}
