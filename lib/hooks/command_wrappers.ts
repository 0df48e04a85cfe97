/**
 * What a command runs besides itself (#20 item 8): `sudo rm x` runs `rm x`, `bash -c "rm x"` runs the
 * command line `rm x`, `find . -exec rm {} ;` runs `rm {} ;`. An `if` rule judges those too, so a
 * guard on `rm` is not passed by a wrapper in front of it. Words are shell words after quote removal;
 * `UNKNOWN` marks text known only when the command runs.
 */

/** Stands for text known only when the command runs: an expansion, a substitution, a glob. */
export const UNKNOWN = "\uE000";

/** One thing a command runs: another command's words, a command line it parses itself, or "cannot say". */
export type InnerCommand =
  | { kind: "words"; words: string[] }
  | { kind: "script"; text: string }
  | { kind: "unjudged"; reason: string };

interface OptionSpec {
  /** Short options that take a value, attached (`-uroot`) or as the next word. */
  short?: string;
  /** Long options that take the next word as value unless written `--name=value`. */
  long?: readonly string[];
  /** Words between the options and the command (timeout's duration, chrt's priority). */
  operands?: number;
  /** `NAME=value` words may stand before the command (env, sudo). */
  assignments?: boolean;
  /** A lone `-` is an option (env's `-`, the same as `-i`). */
  dashIsOption?: boolean;
}

/**
 * Programs that run the command their remaining words name, with the options each takes (from
 * their manuals: GNU coreutils, findutils, util-linux, procps, sudo, OpenBSD doas, strace). An
 * option taken as a flag that really takes a value would hide the command behind it, so the lists
 * err on naming every value option.
 */
const WRAPPERS: Readonly<Record<string, OptionSpec>> = {
  time: { short: "fo", long: ["format", "output"] },
  nohup: {},
  exec: { short: "a" },
  env: { short: "uCS", long: ["unset", "chdir", "split-string"], assignments: true, dashIsOption: true },
  command: {},
  builtin: {},
  coproc: {},
  busybox: {},
  sudo: {
    short: "ugCDhprtTUR",
    long: [
      "user",
      "group",
      "close-from",
      "chdir",
      "host",
      "prompt",
      "role",
      "type",
      "command-timeout",
      "other-user",
      "chroot",
    ],
    assignments: true,
  },
  doas: { short: "aCu" },
  xargs: {
    short: "adEILnPs",
    long: ["arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"],
  },
  nice: { short: "n", long: ["adjustment"] },
  ionice: { short: "cnpPu", long: ["class", "classdata", "pid", "pgid", "uid"] },
  timeout: { short: "ks", long: ["kill-after", "signal"], operands: 1 },
  stdbuf: { short: "ioe", long: ["input", "output", "error"] },
  chrt: { short: "TPD", long: ["sched-runtime", "sched-period", "sched-deadline"], operands: 1 },
  setsid: {},
  strace: { short: "eopsuEabIOSXPA", long: ["output", "attach", "string-limit", "user", "env"] },
  chroot: { long: ["userspec", "groups"], operands: 1 },
  unshare: { short: "SGRw", long: ["setuid", "setgid", "root", "wd"] },
  nsenter: { short: "tSG", long: ["target", "setuid", "setgid"] },
};

/**
 * Programs that run a command line given with `-c` (through a shell): su and runuser (whose
 * options may follow the user name), `flock FILE -c …`, `sg GROUP -c …`.
 */
const DASH_C = new Set(["su", "runuser", "flock", "sg"]);

/** `watch` hands its words, joined by spaces, to `sh -c` (unless `-x`). */
const WATCH: OptionSpec = { short: "nq", long: ["interval", "equexit"] };

/** Shells whose `-c` string is a command line; `-o`/`-O` take the next word. */
const SHELLS = new Set(["sh", "bash", "rbash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh"]);

/** git's options before its subcommand, so `git -C repo push` is judged as `git push` too. */
const GIT: OptionSpec = {
  short: "Cc",
  long: ["git-dir", "work-tree", "namespace", "config-env", "super-prefix", "list-cmds"],
};

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** The program a command word names: `/bin/rm` and `./rm` name `rm`. */
export function programName(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1);
}

/**
 * What `words` (a simple command, its name static) runs besides itself; empty for most commands.
 * `stdin` is the here-doc or here-string the line gives it, which a shell reads its commands from.
 */
export function innerCommands(words: readonly string[], stdin?: string): InnerCommand[] {
  const name = programName(words[0]);
  const wrapper = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined; // not `constructor`
  if (wrapper) {
    const scan = skipOptions(words, wrapper);
    if (name === "env" && (scan.options.has("S") || scan.options.has("split-string"))) {
      return [{ kind: "unjudged", reason: "env -S splits its string into a command when it runs" }];
    }
    // `command -v rm` only says where rm is.
    if (name === "command" && (scan.options.has("v") || scan.options.has("V"))) return [];
    return scan.index < words.length ? [{ kind: "words", words: words.slice(scan.index) }] : [];
  }
  if (SHELLS.has(name)) return shellRuns(words, stdin);
  if (DASH_C.has(name)) return dashCRuns(words);
  if (name === "eval") return [{ kind: "unjudged", reason: "eval builds its command when it runs" }];
  if (name === "find") return findRuns(words);
  if (name === "watch") return watchRuns(words);
  if (name === "git") {
    const scan = skipOptions(words, GIT);
    return scan.index > 1 && scan.index < words.length
      ? [{ kind: "words", words: [words[0], ...words.slice(scan.index)] }]
      : [];
  }
  return [];
}

/** `bash -lc "rm x"` runs the command line `rm x`; a shell given no `-c` and no script reads stdin. */
function shellRuns(words: readonly string[], stdin: string | undefined): InnerCommand[] {
  let command = false;
  let fromStdin = false;
  let i = 1;
  for (; i < words.length; i++) {
    const word = words[i];
    if (word.includes(UNKNOWN)) {
      if (command) break; // most likely the -c string itself, judged below
      return [{ kind: "unjudged", reason: `the options of ${words[0]} are only known when it runs` }];
    }
    if (word === "--" || word === "-") {
      i++;
      break;
    }
    if (word.startsWith("--")) {
      if (word === "--rcfile" || word === "--init-file") i++;
      continue;
    }
    if (!/^[-+]./.test(word)) break;
    for (const letter of word.slice(1)) {
      if (letter === "c") command = true;
      else if (letter === "s") fromStdin = true;
      else if (letter === "o" || letter === "O") i++;
    }
  }
  const operand = words[i];
  if (command) {
    if (operand === undefined) return [];
    return operand.includes(UNKNOWN)
      ? [{ kind: "unjudged", reason: `the -c string of ${words[0]} is only known when it runs` }]
      : [{ kind: "script", text: operand }];
  }
  if (operand === undefined || fromStdin) {
    if (stdin !== undefined && !stdin.includes(UNKNOWN)) return [{ kind: "script", text: stdin }];
    return [{ kind: "unjudged", reason: `${words[0]} reads its commands from standard input` }];
  }
  return []; // `bash script.sh`: the script's commands are not on this command line
}

/**
 * `su - root -c "rm x"`, `flock /tmp/l -c "rm x"`: the `-c` value is a command line, wherever it
 * stands. flock and sg without `-c` run the words after their one operand (sg through `sh -c`).
 */
function dashCRuns(words: readonly string[]): InnerCommand[] {
  const name = programName(words[0]);
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word === "--") break;
    let text: string | undefined;
    if (word === "--command") text = words[i + 1] ?? "";
    else if (word.startsWith("--command=")) text = word.slice("--command=".length);
    else if (/^-[^-]/.test(word)) {
      // A cluster: `-lc CMD`, `-cCMD`; g, G, s, w (and flock's w, E) take a value too.
      for (let j = 1; j < word.length; j++) {
        if (word[j] === "c") {
          text = j < word.length - 1 ? word.slice(j + 1) : words[i + 1] ?? "";
          break;
        }
        if ("gGswE".includes(word[j])) {
          if (j === word.length - 1) i++;
          break;
        }
      }
    }
    if (text === undefined) continue;
    return text.includes(UNKNOWN)
      ? [{ kind: "unjudged", reason: `the -c string of ${name} is only known when it runs` }]
      : [{ kind: "script", text }];
  }
  if (name !== "flock" && name !== "sg") return []; // su or runuser with no -c: a login shell
  const scan = skipOptions(words, { short: "wE", long: ["timeout", "conflict-exit-code"], operands: 1 });
  const rest = words.slice(scan.index);
  if (rest.length === 0) return [];
  if (name === "flock") return [{ kind: "words", words: rest }];
  const text = rest.join(" ");
  return text.includes(UNKNOWN)
    ? [{ kind: "unjudged", reason: "the command sg runs is only known when it runs" }]
    : [{ kind: "script", text }];
}

/** `find … -exec rm {} ;` (and -execdir, -ok, -okdir) runs `rm {}` for each file. */
function findRuns(words: readonly string[]): InnerCommand[] {
  const runs: InnerCommand[] = [];
  for (let i = 1; i < words.length; i++) {
    if (!["-exec", "-execdir", "-ok", "-okdir"].includes(words[i])) continue;
    let end = i + 1;
    while (end < words.length && words[end] !== ";" && words[end] !== "+") end++;
    if (end > i + 1) runs.push({ kind: "words", words: words.slice(i + 1, end) });
    i = end;
  }
  return runs;
}

function watchRuns(words: readonly string[]): InnerCommand[] {
  const scan = skipOptions(words, WATCH);
  const rest = words.slice(scan.index);
  if (rest.length === 0) return [];
  if (scan.options.has("x") || scan.options.has("exec")) return [{ kind: "words", words: rest }];
  const text = rest.join(" ");
  return text.includes(UNKNOWN)
    ? [{ kind: "unjudged", reason: "the command watch runs is only known when it runs" }]
    : [{ kind: "script", text }];
}

/**
 * Where the command starts after a program's own options (getopt, stopping at the first operand as
 * these programs do). A word only known at run time ends the scan: it may be the command.
 */
function skipOptions(words: readonly string[], spec: OptionSpec): { index: number; options: Set<string> } {
  const options = new Set<string>();
  let operands = spec.operands ?? 0;
  let i = 1;
  while (i < words.length) {
    const word = words[i];
    if (word.includes(UNKNOWN)) break;
    if (word === "--") return { index: i + 1, options };
    if (word === "-" && spec.dashIsOption) {
      i++;
    } else if (word.startsWith("--")) {
      const name = word.slice(2).split("=", 1)[0];
      options.add(name);
      i += !word.includes("=") && spec.long?.includes(name) ? 2 : 1;
    } else if (word.startsWith("-") && word.length > 1) {
      let takesNext = false;
      for (let j = 1; j < word.length; j++) {
        options.add(word[j]);
        if (spec.short?.includes(word[j])) {
          takesNext = j === word.length - 1; // `-uroot` holds its value; `-u root` takes the next word
          break;
        }
      }
      i += takesNext ? 2 : 1;
    } else if (spec.assignments && ASSIGNMENT.test(word)) {
      i++;
    } else if (operands > 0) {
      operands--;
      i++;
    } else {
      break;
    }
  }
  return { index: i, options };
}
