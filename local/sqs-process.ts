/**
 * The SQS stand-in's own process (started by `startSqs`): like the real service, its work does not
 * share the handlers' event loop. Prints `ready` once listening on loopback; exits when its parent
 * closes stdin, so a parent that dies never leaves it behind. Given a journal file (a persistent
 * data folder), every acknowledged message survives a crash (see `sqs-journal.ts`).
 *
 * A terminal's Ctrl-C (SIGINT) and a service manager's stop (SIGTERM) reach every process of the
 * group, this one included. Both are ignored: the runtime still needs the queue to drain it, then
 * stops it by closing stdin.
 */
import { buildApp } from "fauxqs";
import { QueueJournal, journalRequests } from "./sqs-journal.js";

process.on("SIGINT", () => undefined);
process.on("SIGTERM", () => undefined);

const port = Number(process.argv[2]);
const journalFile = process.argv[3];
const app = buildApp({ logger: false, host: "127.0.0.1" });
const journal = journalFile ? new QueueJournal(journalFile) : undefined;
if (journal) journalRequests(app, journal);
await app.listen({ port, host: "127.0.0.1" });
process.stdout.write("ready\n");
process.stdin.on("end", () => void app.close().finally(() => (journal?.close(), process.exit(0))));
process.stdin.resume();
