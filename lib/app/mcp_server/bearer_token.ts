import * as path from "node:path";
import {
  isWithinPath,
  NotRegularFileError,
  type Platform,
  processUid,
  readRegularFile,
} from "../../platform/mod.ts";
import { UsageError } from "../../shared/mod.ts";

/** The token `mcp-server --http` asks every request for, and the file that holds it. */
export interface BearerToken {
  token: string;
  file: string;
  /** True when this start wrote the file (a fresh token), false when it read the user's. */
  created: boolean;
  /** Removes the file when this start made it up under `$TRELLIS_HOME/run` (a `--token-file` stays). */
  dispose(): Promise<void>;
  /** Said on stderr: a `--token-file` outside `$TRELLIS_HOME/run` is readable by sandboxed commands. */
  warning?: string;
}

// 32 random bytes: 256 bits, as base64url (43 characters, no padding), safe in a header.
const TOKEN_BYTES = 32;
const MAX_TOKEN_FILE_BYTES = 4096;
const FIELD = "--token-file";

/** A fresh token from the platform's cryptographic random source. */
export function freshToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(TOKEN_BYTES));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The bearer token of this start. Without `tokenFile`: a fresh token in
 * `$TRELLIS_HOME/run/mcp-server-<pid>.token` (the directory 0700, the file 0600; removed on the way
 * out; sandboxed commands do not see `run/`). With `tokenFile`: a missing file is created 0600 with a
 * fresh token (so a client configured once keeps working across restarts); an existing one is used
 * as it is only when it is a non-empty regular file of this user that no one else can read or
 * write — anything else is a UsageError naming the file and what is wrong with it.
 */
export async function prepareBearerToken(
  platform: Platform,
  options: { home: string; tokenFile?: string },
): Promise<BearerToken> {
  const runDir = path.join(options.home, "run");
  if (options.tokenFile === undefined) return await runDirToken(platform, runDir);
  const file = path.resolve(platform.cwd(), options.tokenFile);
  if (path.dirname(file) === runDir) await makeRunDir(platform, runDir);
  const token = await tokenFromFile(platform, file);
  return isWithinPath(runDir, file) ? token : {
    ...token,
    warning: `warning: --token-file ${file} lies outside ${runDir}: sandboxed commands of this user can ` +
      `read it (and, with the network on, drive this server); ${runDir} is hidden from them\n`,
  };
}

async function tokenFromFile(platform: Platform, file: string): Promise<BearerToken> {
  const info = await platform.fs.stat(file);
  if (info === null) return await newTokenFile(platform, file);
  if (!info.isFile) refuse(file, `it is ${info.isDirectory ? "a directory" : "not a regular file"}`);
  const uid = processUid();
  if (uid !== undefined && info.uid !== uid) {
    refuse(file, `it belongs to uid ${info.uid}, not to the user running the server (uid ${uid})`);
  }
  const mode = info.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    refuse(
      file,
      `group or others may ${(mode & 0o044) !== 0 ? "read" : "write"} it (mode ${octal(mode)}); ` +
        `only its owner may: chmod 600 ${file}`,
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = await readRegularFile(file, { maxBytes: MAX_TOKEN_FILE_BYTES });
  } catch (error) {
    if (error instanceof NotRegularFileError) refuse(file, `it is ${error.kind}`);
    refuse(file, (error as Error).message);
  }
  const token = new TextDecoder().decode(bytes).trim();
  if (token === "") refuse(file, "it is empty (delete it to have the server write a fresh token)");
  if (!/^[\x21-\x7e]+$/.test(token)) {
    refuse(file, "the token must be one line of visible ASCII characters, without spaces");
  }
  return { token, file, created: false, dispose: () => Promise.resolve() };
}

async function makeRunDir(platform: Platform, dir: string): Promise<void> {
  try {
    await platform.fs.mkdir(dir);
    await platform.fs.chmod(dir, 0o700); // mkdir's mode is filtered by the umask; this one is exact
  } catch (error) {
    throw new UsageError(`Cannot create ${dir} for the bearer token: ${(error as Error).message}`, {
      file: dir,
    });
  }
}

async function runDirToken(platform: Platform, dir: string): Promise<BearerToken> {
  await makeRunDir(platform, dir);
  const file = path.join(dir, `mcp-server-${platform.pid()}.token`);
  const token = freshToken();
  await platform.fs.writeFileAtomic(file, `${token}\n`, { mode: 0o600 });
  return { token, file, created: true, dispose: () => platform.fs.remove(file) };
}

async function newTokenFile(platform: Platform, file: string): Promise<BearerToken> {
  const parent = path.dirname(file);
  if (!(await platform.fs.stat(parent))?.isDirectory) refuse(file, `its directory ${parent} does not exist`);
  const token = freshToken();
  try {
    // A temporary file renamed over the name: a link planted there is replaced, never followed.
    await platform.fs.writeFileAtomic(file, `${token}\n`, { mode: 0o600 });
  } catch (error) {
    refuse(file, (error as Error).message);
  }
  return { token, file, created: true, dispose: () => Promise.resolve() };
}

function refuse(file: string, why: string): never {
  throw new UsageError(`Cannot use ${FIELD} ${file}: ${why}`, { field: FIELD, file });
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, "0")}`;
}
