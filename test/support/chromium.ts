/**
 * Where the browser tests find Chromium: `CHROMIUM_PATH` if set (e.g. a distribution's
 * /usr/bin/chromium), else the headless build inside the npm package `@sparticuz/chromium`, unpacked
 * once per machine into the temporary folder. The global setup resolves it before any worker runs,
 * so parallel test files never race on the unpacking.
 */
import { existsSync } from "node:fs";

export async function chromiumExecutable(): Promise<string> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist; unset it to use the browser from the npm package @sparticuz/chromium`);
    return fromEnv;
  }
  try {
    const { default: packaged } = await import("@sparticuz/chromium");
    return await packaged.executablePath();
  } catch (err) {
    throw new Error(`The browser tests need the npm package @sparticuz/chromium; run \`npm install\` (${(err as Error).message})`);
  }
}
