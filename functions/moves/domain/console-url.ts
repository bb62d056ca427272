/** Where an operator looks at an execution on AWS: its page in the Step Functions console. */

/** The local stand-in's executions carry this account; they have no console page. */
const LOCAL_ACCOUNT = "000000000000";

/** The Step Functions console page of an execution on AWS (none for the local stand-in's account). */
export function consoleUrl(arn: string | null | undefined): string | undefined {
  const region = arn?.split(":")[3];
  if (!arn || !region || arn.split(":")[4] === LOCAL_ACCOUNT) return undefined;
  return `https://${region}.console.aws.amazon.com/states/home?region=${region}#/v2/executions/details/${arn}`;
}
