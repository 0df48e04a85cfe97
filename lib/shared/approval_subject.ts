/**
 * What an approval is about, as data (#13 items 2–3, #15 item 4): the tool that needs approval says
 * exactly what would happen, and every approver — the line prompt of `exec`, a later interactive UI,
 * an event consumer — renders the same facts and offers session approvals scoped to them.
 */

/**
 * Where an approved command runs. `inside`: in the sandbox, as without approval; `outside`: the
 * sandbox is lifted for this run (an explicit escalation); `unavailable`: there is no sandbox, so
 * the command runs with the user's full rights.
 */
export type CommandSandbox = "inside" | "outside" | "unavailable";

/**
 * One file a command names, as the approval saw it (#20 item 7): `state` is its executable bit and
 * content hash (`x sha256:…`), `missing`, or `special fifo`. An approval of `./build.sh` is for
 * these bytes: the same command over a rewritten script is another subject.
 */
export interface NamedFileState {
  /** The absolute path the command names (symlinks followed for the content, not in the name). */
  path: string;
  /** `x sha256:<hex>` / `- sha256:<hex>` (executable bit, content), `missing`, `special fifo`, … */
  state: string;
}

/** What approving a call allows: a command, a path, or an action. */
export type ApprovalSubject =
  /**
   * A shell command: the exact text bash receives, its working directory, where it runs, and the
   * files it names inside the writable roots (absent when it names none).
   */
  | { kind: "command"; command: string; cwd: string; sandbox: CommandSandbox; files?: NamedFileState[] }
  /**
   * A file operation beyond the roots: the real path (symlinks and `..` resolved). `noDirectoryScope`:
   * the path's directory is `$HOME`, where "always for this directory" would cover every dotfile,
   * so no directory scope is offered (as none is for `/`; #20 item 18).
   */
  | { kind: "path"; path: string; access: "read" | "write"; noDirectoryScope?: true }
  /** Anything else (an MCP tool, a plugin install, a sampling request): its name and arguments. */
  | { kind: "action"; name: string; arguments: unknown };

/**
 * A session approval a prompt may offer for a subject: the exact command, or a command prefix the
 * prompt names (each in one working directory and sandbox placement); the exact path, or a
 * directory the prompt names (for one access kind); one action.
 */
export type SessionScope =
  | { kind: "command"; command: string; cwd: string; sandbox: CommandSandbox; files?: NamedFileState[] }
  /** `files`: the ones the prefix itself names (`bash scripts/x.sh …`), as they were approved. */
  | {
    kind: "command_prefix";
    prefix: string[];
    cwd: string;
    sandbox: CommandSandbox;
    files?: NamedFileState[];
  }
  | { kind: "path"; path: string; access: "read" | "write" }
  | { kind: "directory"; directory: string; access: "read" | "write" }
  | { kind: "action"; name: string };
