/**
 * `npm run restore` in a process of its own, for the crash tests (`atomic-restore.test.ts`) to
 * SIGKILL: `CRASH_AT="<point> <phase>"` freezes that fault-injection point forever (printing
 * `FROZEN`), so the kill lands exactly there. The command is the real one, arguments and all.
 */
import { injectFaults } from "../../functions/platform/fault-injection.js";

const [point, phase] = (process.env.CRASH_AT ?? "").split(" ");
injectFaults(async (at, when) => {
  if (at !== point || when !== phase) return;
  console.log(`FROZEN ${at} ${when}`);
  setInterval(() => {}, 1 << 30); // a pending promise alone would let the process end
  await new Promise(() => {});
});
await import("../../scripts/restore.js");
