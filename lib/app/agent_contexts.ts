import * as path from "node:path";
import { historyLines, rebuildHistory } from "../loop/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import type { ConversationItem } from "../shared/mod.ts";
import { type AgentContextRow, itemText } from "./context_ledger.ts";
import type { TokenCounter } from "./token_counter.ts";

/**
 * The context of each subagent of `threadId` (#22 item 6: `debug context` and `/context` count
 * them), from the transcripts the engine writes beside the parent's (`<thread>-agentN.jsonl`, whose
 * header names the agent type): its history counted as the ledger counts the parent's, plus its
 * instructions when the definition is known. Read from disk, so a resumed session's children count
 * too; a running child counts what it has recorded so far.
 */
export async function agentContexts(
  folder: { fs: FileSystem; dir: string },
  threadId: string,
  counter: Pick<TokenCounter, "count">,
  options: { contextWindow?: number; instructionsOf?: (agentType: string) => string | undefined },
): Promise<AgentContextRow[]> {
  let names: string[];
  try {
    names = (await folder.fs.readDir(folder.dir)).map((e) => e.name);
  } catch {
    return [];
  }
  const prefix = `${threadId}-agent`;
  const mine = names
    .filter((n) => n.startsWith(prefix) && /^\d+\.jsonl$/.test(n.slice(prefix.length)))
    .sort((a, b) => Number(a.slice(prefix.length, -6)) - Number(b.slice(prefix.length, -6)));
  const rows: AgentContextRow[] = [];
  for (const name of mine) {
    const file = path.join(folder.dir, name);
    let text: string;
    try {
      text = await folder.fs.readTextFile(file);
    } catch {
      continue; // removed since the listing: nothing to count
    }
    const { lines } = historyLines<{ type: string; meta?: { parent?: { agentType?: string } } }>(text);
    const agentType = lines.find((l) => l.type === "session_meta")?.meta?.parent?.agentType ?? "(unknown)";
    const { items } = rebuildHistory(lines);
    const instructions = options.instructionsOf?.(agentType) ?? "";
    const tokens = counter.count(instructions) +
      items.reduce((sum: number, item: ConversationItem) => sum + counter.count(itemText(item)), 0);
    rows.push({
      agentId: name.slice(0, -".jsonl".length),
      agentType,
      tokens,
      share: options.contextWindow ? tokens / options.contextWindow : null,
      transcript: file,
    });
  }
  return rows;
}
