// A tiny application instrumented with the real @sentry/node SDK, run as its own process by
// sentry-sdk.test.ts (as the fixture captures were made): DSN from the API, a user, an exception,
// a message, an explicit session, then flush.
import * as Sentry from "@sentry/node";

Sentry.init({ dsn: process.env.SENTRY_DSN, release: "e2e@1.0.0", environment: "test", sendDefaultPii: true, tracesSampleRate: 0 });
Sentry.setUser({ id: "42", email: "alice@example.com", ip_address: "10.1.2.3", username: "alice" });
Sentry.startSession();
try {
  throw new TypeError("e2e node exception");
} catch (e) {
  Sentry.captureException(e);
}
Sentry.captureMessage("e2e node message", "warning");
// As the fixture app: let the events go (the session counts the error) before ending the session.
await Sentry.flush(10_000);
Sentry.endSession();
const flushed = await Sentry.flush(10_000);
console.log(JSON.stringify({ flushed }));
process.exit(flushed ? 0 : 1);
