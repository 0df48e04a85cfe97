import process from "node:process";
import { Readable, Writable } from "node:stream";
import { useStdoutStream } from "./_bun_stdio.ts";

/**
 * The process's stdin and stdout as Node streams, for a protocol that owns both for its whole life
 * (`trellis mcp-server` over stdio hands them to the MCP SDK's StdioServerTransport). Touching them
 * builds Node's stream layer, so nothing on a command's fast path calls this.
 */
export function processStdio(): { stdin: Readable; stdout: Writable } {
  useStdoutStream(); // under Bun, platform.writeStdout then queues behind the protocol's writes
  return { stdin: process.stdin, stdout: process.stdout };
}

/**
 * The same stdin and stdout as web streams of bytes, for a protocol library that reads and writes
 * those (`trellis acp`: the ACP SDK's ndJsonStream).
 */
export function processWebStdio(): { input: ReadableStream<Uint8Array>; output: WritableStream<Uint8Array> } {
  const { stdin, stdout } = processStdio();
  return {
    input: Readable.toWeb(stdin) as unknown as ReadableStream<Uint8Array>,
    output: Writable.toWeb(stdout) as WritableStream<Uint8Array>,
  };
}
