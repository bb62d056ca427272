/// <reference path="./.sst/platform/config.d.ts" />

/**
 * SST v4 app. Infra lives in `stacks/` (one concern per module); `run()` imports them dynamically, as
 * SST requires (provider globals exist only inside `run()`), in dependency order.
 * Type-check offline: `scripts/infra-typecheck.sh` (also run by `npm test`).
 */
export default $config({
  app(input) {
    return {
      name: "forgeline",
      home: "aws",
      removal: input?.stage === "production" ? "retain" : "remove",
      protect: input?.stage === "production",
    };
  },
  async run() {
    // The academic routes are generated from rest/ and the OpenAPI document from the route modules
    // (both ignored by git): regenerate them before the route table is read and the functions are
    // bundled, so a plain `sst deploy` ships what the sources hold. SST runs from the app root.
    const { execFileSync } = await import("node:child_process");
    const { existsSync } = await import("node:fs");
    for (const generator of ["scripts/pers_autoload.ts", "scripts/openapi-document.ts"]) {
      if (existsSync(generator)) execFileSync(process.execPath, ["--import", "tsx", generator], { stdio: "inherit" });
    }
    const storage = await import("./stacks/storage");
    await import("./stacks/secrets");
    const queues = await import("./stacks/queues");
    const jobs = await import("./stacks/jobs");
    const http = await import("./stacks/api");
    await import("./stacks/cron");
    const alarms = await import("./stacks/alarms");

    return {
      api: http.api.url,
      ingest: http.ingest?.url,
      git: http.gitHttp?.url,
      table: storage.table.name,
      queue: queues.ingestQueue.url,
      stateMachine: jobs.storageMoveMachine?.properties.arn,
      alarms: alarms.alarmTopic.arn,
    };
  },
});
