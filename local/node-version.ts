/**
 * The Node.js lines Forgeline supports: 22 (the Lambda runtime `stacks/` deploys) and 24, the
 * maintained LTS lines. Node 20 (end of life since April 2026) still runs it, with one line saying
 * so, in place of the AWS SDK's nine-line warning about the same thing.
 */
export const SUPPORTED_NODE_MAJORS = [22, 24];

export function checkNodeVersion(notice: (line: string) => void, version = process.version): void {
  const major = Number(/^v(\d+)/.exec(version)?.[1] ?? 0);
  if (major >= SUPPORTED_NODE_MAJORS[0]!) return;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
  notice(`Notice: Node.js ${version} is past its end of life; Forgeline supports Node 22 and 24 (on Linux x86-64: scripts/with-node.sh 22 npm start).`);
}
