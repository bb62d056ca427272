/** System prerequisites of the local runtime, checked before anything starts. */
import { spawnSync } from "node:child_process";
import { OperatorError } from "./operator-errors.js";

export class PrerequisiteError extends OperatorError {}

const INSTALL_JAVA = "Install it: sudo apt-get install openjdk-17-jre-headless (Debian/Ubuntu) or brew install openjdk@17 (macOS), or point JAVA_HOME at one";

/** DynamoDB Local is a Java program: it needs a Java 17+ runtime on PATH (or JAVA_HOME). */
export function javaCommand(): string {
  const candidates = [process.env.JAVA_HOME ? `${process.env.JAVA_HOME}/bin/java` : undefined, "java"].filter(Boolean) as string[];
  for (const cmd of candidates) {
    const out = spawnSync(cmd, ["-version"], { encoding: "utf8" });
    if (out.error || out.status !== 0) continue;
    const text = `${out.stderr}${out.stdout}`;
    const major = Number(/version "(\d+)/.exec(text)?.[1] ?? 0);
    if (major >= 17) return cmd;
    throw new PrerequisiteError(`Java ${major || "(unknown version)"} was found, but the DynamoDB stand-in (DynamoDB Local) needs Java 17 or newer`, INSTALL_JAVA);
  }
  throw new PrerequisiteError("Java was not found, and the DynamoDB stand-in (DynamoDB Local) needs a Java 17+ runtime", INSTALL_JAVA);
}
