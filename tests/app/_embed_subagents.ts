// Run by embedding_test.ts in a child process with a sandbox HOME: one turn whose model calls a
// subagent, then what the library face says of the session's subagents (#22 item 6).
import { Trellis } from "../../mod.ts";

const trellis = await Trellis.open({ config: Deno.args });
const session = await trellis.openSession();
const outcome = await session.runTurn("go");
console.log(JSON.stringify({ outcome, subagents: session.subagents(), sessionFile: session.transcriptFile }));
await session.close();
