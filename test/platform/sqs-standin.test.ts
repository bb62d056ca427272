import { describe, it, expect } from "vitest";
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { CreateQueueCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { startSqs } from "../../local/sqs.js";
import { freePort } from "../../local/ports.js";
import { alive, until } from "../support/processes.js";

describe("the SQS stand-in", () => {
  it("runs in its own process on loopback and speaks the SQS protocol", async () => {
    const sqs = await startSqs({ port: await freePort() });
    try {
      expect(new URL(sqs.endpoint).hostname).toBe("127.0.0.1");
      const client = new SQSClient({ endpoint: sqs.endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
      const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: "standin-check" }));
      await client.send(new SendMessageCommand({ QueueUrl, MessageBody: "hello" }));
      const out = await client.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 1 }));
      expect(out.Messages?.map((m) => m.Body)).toEqual(["hello"]);
    } finally {
      await sqs.stop();
    }
    await expect(fetch(sqs.endpoint)).rejects.toThrow();
  });

  it("exits when the process that started it dies without stopping it", async () => {
    // A parent that starts the stand-in, reports its pid and is then killed with SIGKILL.
    const script = `
      const { startSqs } = await import(${JSON.stringify(resolve(import.meta.dirname, "../../local/sqs.ts"))});
      const sqs = await startSqs({ port: ${await freePort()} });
      console.log(JSON.stringify({ pid: sqs.pid }));
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: resolve(import.meta.dirname, "../.."), stdio: ["ignore", "pipe", "inherit"] });
    const childPid = await new Promise<number>((ok) => parent.stdout!.on("data", (d: Buffer) => ok((JSON.parse(String(d)) as { pid: number }).pid)));
    expect(alive(childPid)).toBe(true);
    parent.kill("SIGKILL");
    expect(await until(() => !alive(childPid))).toBe(true);
  });
});
