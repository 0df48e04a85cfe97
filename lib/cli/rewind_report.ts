import type { SessionRewindOutcome } from "../app/mod.ts";

/** What a rewind did (or, dry, would do), as `trellis rewind` and `/rewind` print it (#25 item 2). */
export function rewindReport(o: SessionRewindOutcome): string[] {
  const lines: string[] = [];
  const would = o.dryRun;
  lines.push(`${would ? "Would rewind" : "Rewound"} session ${o.sessionId} to before turn ${o.to}:`);
  const edited = new Set(o.editedSince);
  const kept = new Set(o.kept);
  const done = would
    ? o.restore.filter((r) => !kept.has(r.path))
    : o.restore.filter((r) => o.restored.includes(r.path));
  for (const r of done) {
    const note = edited.has(r.path) ? " (edited since; put back by --force)" : "";
    lines.push(
      r.blob === null
        ? `  ${would ? "would remove" : "removed"} ${r.path} (created in turn ${r.turn})${note}`
        : `  ${would ? "would restore" : "restored"} ${r.path}${note}`,
    );
  }
  if (o.restore.length === 0 && o.shellCommands.length === 0 && o.files !== false) {
    lines.push("  no file to put back");
  }
  for (const f of o.failed) {
    lines.push(
      `  could not put back ${f.path} (${f.reason}): left as it was; run the rewind again once it can be written`,
    );
  }
  for (const p of o.kept) {
    lines.push(`  kept ${p}: it was edited since the agent left it (your edit stays; --force puts it back)`);
  }
  for (const s of o.shellCommands) {
    lines.push(
      `  not restorable: shell command \`${s.command}\` (turn ${s.turn}) — its changes are not in the checkpoints`,
    );
  }
  if (o.conversation) {
    lines.push(
      would
        ? `  would cut the conversation to before turn ${o.to}`
        : `  conversation cut to before turn ${o.to}: \`trellis resume ${o.sessionId}\` continues from there` +
          (o.savedTranscript ? ` (the whole transcript is kept at ${o.savedTranscript})` : ""),
    );
  }
  return lines;
}
