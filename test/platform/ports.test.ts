/** `freePort` (local/ports.ts): a port for a process that binds it a moment later. */
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { ephemeralRangeStart, freePort, listenProblem } from "../../local/ports.js";

describe("freePort", () => {
  it("picks a free loopback port below the ephemeral range, where outgoing connections never take theirs", async () => {
    const below = ephemeralRangeStart();
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(await listenProblem("127.0.0.1", port)).toBeUndefined();
      if (below !== undefined) expect(port).toBeLessThan(below);
      expect(port).toBeGreaterThanOrEqual(10_000);
    }
  });

  it("never returns a port something is listening on", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const address = taken.address();
    const busy = typeof address === "object" && address ? address.port : 0;
    try {
      for (let i = 0; i < 50; i++) expect(await freePort()).not.toBe(busy);
      expect(await listenProblem("127.0.0.1", busy)).toMatch(/already in use/);
    } finally {
      taken.close();
    }
  });
});
