/**
 * What a confined server was denied, read from what it wrote (its stderr, a failed call's text):
 * the errno names and messages Node, Python, Go, Rust and the shell print for a write to a
 * read-only file system, a missing or hidden path, and a network the sandbox took away. A server
 * that swallows its errors shows nothing here; `mcp sandbox-check` says so.
 */
export type Denial =
  /** A file-system operation failed: EROFS/EACCES/EPERM (not writable) or ENOENT (hidden, missing). */
  | { kind: "file"; code: string; path: string; line: string }
  | { kind: "network"; code: string; line: string };

const FILE_CODES: [RegExp, string][] = [
  [/\bEROFS\b|Read-only file system|\[Errno 30\]/i, "EROFS"],
  [/\bEACCES\b|Permission denied|\[Errno 13\]/i, "EACCES"],
  [/\bEPERM\b|Operation not permitted|\[Errno 1\]/i, "EPERM"],
  [/\bENOENT\b|No such file or directory|\[Errno 2\]/i, "ENOENT"],
];

const NETWORK_CODES: [RegExp, string][] = [
  [/\bENETUNREACH\b|Network is unreachable|\[Errno 101\]/i, "ENETUNREACH"],
  [
    /\bEAI_AGAIN\b|Temporary failure in name resolution|\bENOTFOUND\b|getaddrinfo|Name or service not known/i,
    "EAI_AGAIN",
  ],
  [/\bECONNREFUSED\b|Connection refused|\[Errno 111\]/i, "ECONNREFUSED"],
];

/** An absolute path in the line: quoted first (Node `open '/x'`, Python `: '/x'`), else bare. */
function pathIn(line: string): string | undefined {
  const quoted = /['"`‘“](\/[^'"`’”\n]*)['"`’”]/.exec(line);
  if (quoted) return quoted[1];
  const bare = /(?:^|[\s:(=])(\/[^\s'",):]+)/.exec(line);
  return bare?.[1];
}

/** Every distinct denial in `text`, in the order first seen; network ones only when the network is off. */
export function findDenials(text: string, options: { networkOff: boolean }): Denial[] {
  const found: Denial[] = [];
  const seen = new Set<string>();
  for (const raw of text.split("\n")) {
    const line = raw.trim().slice(0, 400);
    if (!line) continue;
    const network = options.networkOff ? NETWORK_CODES.find(([re]) => re.test(line)) : undefined;
    if (network) {
      add({ kind: "network", code: network[1], line });
      continue;
    }
    const file = FILE_CODES.find(([re]) => re.test(line));
    const path = file ? pathIn(line) : undefined;
    if (file && path) add({ kind: "file", code: file[1], path, line });
  }
  return found;

  function add(denial: Denial): void {
    const key = denial.kind === "file" ? `${denial.code} ${denial.path}` : `${denial.code}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push(denial);
  }
}
