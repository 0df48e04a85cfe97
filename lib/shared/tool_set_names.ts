/**
 * The model-facing tool names of each tool set (#23 items 2 and "Bad input"): the loop reads them to
 * tell a model that calls another family's tool which set that tool belongs to, instead of a bare
 * "unknown tool". lib/tools builds the sets; this table only names them.
 */
export type ToolSetFace = "codex" | "claude" | "trellis";

export const TOOL_SET_NAMES: Readonly<Record<ToolSetFace, readonly string[]>> = {
  trellis: [
    "read_file",
    "list_dir",
    "glob",
    "grep",
    "write_file",
    "edit_file",
    "shell",
    "update_plan",
    "view_image",
    "web_fetch",
    "request_user_input",
  ],
  codex: ["exec_command", "write_stdin", "request_user_input", "apply_patch", "view_image", "update_plan"],
  claude: ["Bash", "Edit", "Read", "ToolSearch", "Write", "TodoWrite", "WebFetch"],
};

/**
 * The error output for a call to a tool this request did not offer: names the set the tool belongs
 * to when it is another family's, and the set's tools that are on offer.
 */
export function unknownToolMessage(name: string, offered: readonly string[]): string {
  const current = (Object.keys(TOOL_SET_NAMES) as ToolSetFace[]).find((face) =>
    offered.some((n) => TOOL_SET_NAMES[face].includes(n) && !sharedName(n))
  );
  const owners = (Object.keys(TOOL_SET_NAMES) as ToolSetFace[]).filter((face) =>
    face !== current && TOOL_SET_NAMES[face].includes(name)
  );
  if (owners.length === 0) return `unknown tool "${name}"`;
  const here = current ? `the ${current} tool set` : "this session's tools";
  const builtins = offered.filter((n) => current && TOOL_SET_NAMES[current].includes(n));
  return `unknown tool "${name}": it belongs to the ${
    owners.join("/")
  } tool set, and this request offers ${here}` +
    (builtins.length ? ` (${builtins.join(", ")})` : "") + "; call one of those instead";
}

/** Names several sets share (they never identify a set). */
function sharedName(name: string): boolean {
  return (Object.keys(TOOL_SET_NAMES) as ToolSetFace[]).filter((f) => TOOL_SET_NAMES[f].includes(name))
    .length > 1;
}
