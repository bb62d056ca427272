// The real @sentry/node SDK in its own process: COUNT exceptions of one kind (ERROR_TEXT), then flush.
// Each message is numbered: the SDK's Dedupe integration drops an event equal to the one before it,
// and grouping (type, culprit, platform) ignores the message, so they all land in one error.
import * as Sentry from "@sentry/node";

Sentry.init({ dsn: process.env.SENTRY_DSN, release: "hooks@1.0.0", environment: "test", tracesSampleRate: 0 });
const count = Number(process.env.COUNT ?? 1);
for (let i = 0; i < count; i++) {
  try {
    throw new RangeError(`${process.env.ERROR_TEXT ?? "node hook error"} #${i + 1}`);
  } catch (e) {
    Sentry.captureException(e);
  }
}
const flushed = await Sentry.flush(10_000);
console.log(JSON.stringify({ flushed }));
process.exit(flushed ? 0 : 1);
