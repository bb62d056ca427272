// One function's execution environment in isolated mode: a plain Node process (no TypeScript
// loader) that imports the function's bundle, as Lambda's Node runtime does at a cold start, then
// runs one invocation at a time for the parent (`pool.ts`) over the IPC channel.
//   node host.mjs <bundle.mjs> <function name>   (with --enable-source-maps if FORGELINE_ISOLATED_SOURCE_MAPS=1)
// Plain JavaScript on purpose: it must run exactly what ships, nothing compiled on the fly.
import { pathToFileURL } from "node:url";

const [bundle, functionName] = process.argv.slice(2);

/** Lambda's error shape (`errorType`, `errorMessage`, `trace`). */
const describe = (err) => ({
  errorType: err?.name ?? "Error",
  errorMessage: err?.message ?? String(err),
  trace: String(err?.stack ?? "").split("\n"),
});

// Lambda's Node runtime global for response streaming (`awslambda.streamifyResponse`): a streaming
// handler writes its answer to a stream, which is collected here and handed back as one result.
const STREAMING = Symbol.for("aws.lambda.runtime.handler.streaming");
globalThis.awslambda = {
  streamifyResponse(fn) {
    fn[STREAMING] = "response";
    return fn;
  },
  HttpResponseStream: {
    from(stream, metadata) {
      stream.metadata = metadata;
      return stream;
    },
  },
};

/** Runs a streaming handler into memory; the result has the shape of a buffered function URL answer. */
async function invokeStreaming(handler, event, context) {
  const { Writable } = await import("node:stream");
  const chunks = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  await handler(event, stream, context);
  const metadata = stream.metadata ?? {};
  return { statusCode: metadata.statusCode ?? 200, headers: metadata.headers ?? {}, cookies: metadata.cookies ?? [], body: Buffer.concat(chunks).toString("base64"), isBase64Encoded: true };
}

let mod;
const initStart = performance.now();
try {
  mod = await import(pathToFileURL(bundle).href);
  if (typeof mod.handler !== "function") throw new TypeError(`${bundle} does not export a handler`);
} catch (err) {
  process.send({ type: "init-error", error: describe(err) });
  process.disconnect();
  process.exit(1);
}
process.send({ type: "ready", initMs: performance.now() - initStart });

process.on("message", async (msg) => {
  if (msg?.type !== "invoke") return;
  const deadline = Date.now() + msg.timeoutMs;
  const context = {
    functionName,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: "512",
    awsRequestId: msg.requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `local/${process.pid}`,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done() {},
    fail() {},
    succeed() {},
  };
  try {
    const result = mod.handler[STREAMING] ? await invokeStreaming(mod.handler, msg.event, context) : await mod.handler(msg.event, context);
    process.send({ type: "result", id: msg.id, result: result === undefined ? null : result });
  } catch (err) {
    process.send({ type: "error", id: msg.id, error: describe(err) });
  }
});

// The parent going away ends this environment, as Lambda freezes and reclaims it.
process.on("disconnect", () => process.exit(0));
