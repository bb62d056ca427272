/**
 * The storage-move state machine, deployed from raw ASL (JSONPath), logging every execution with its
 * data to CloudWatch Logs and traced in X-Ray. SST's `StepFunctions` component
 * only builds JSONata states, and the local runner (`aws-local-stepfunctions`) only runs JSONPath, so
 * the machine is a plain Pulumi `aws.sfn.StateMachine` and is linked through an `sst.Linkable`.
 *
 * ASL convention: a Task's `"Resource"` (or any string) `"${task:<workerName>}"` is replaced by the
 * ARN of the Lambda built for the `workers` entry of kind `task` with that name.
 *
 * The ASL file is read when this module is evaluated, i.e. inside `run()` at deploy time, so its
 * absence never breaks the type-check. Without it the machine is skipped (with a warning) and
 * `moves/` functions get no link to it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { workers } from "../functions/routes";
import { handlerOf, LOG_RETENTION_DAYS, pascal, substituteTasks, taskPlaceholders, TIMEOUT_SECONDS, workersOfKind } from "./plan";
import { lambdaArgs, linksFor } from "./functions";

export const ASL_FILE = "functions/moves/storage-move.asl.json";

/** One Lambda per task worker, keyed by worker name. */
export const taskFunctions: Record<string, sst.aws.Function> = Object.fromEntries(
  workersOfKind(workers, "task").map((w) => [
    w.name,
    new sst.aws.Function(
      `Task${pascal(w.name)}`,
      // One invocation copies a batch of repositories between storages: allow Lambda's maximum
      // (the ASL's Replicate/Cleanup timeouts match; FORGELINE_MOVE_BATCH_SIZE=1 for huge repositories).
      lambdaArgs({ handler: handlerOf(w.module), link: linksFor(w.module, "task", {}), timeout: `${TIMEOUT_SECONDS.task} seconds` }),
    ),
  ]),
);

function readAsl(): unknown {
  const path = join(process.cwd(), ASL_FILE); // SST runs `run()` from the app root
  if (!existsSync(path)) {
    console.warn(`${ASL_FILE} not found: skipping the StorageMoveMachine state machine`);
    return undefined;
  }
  return JSON.parse(readFileSync(path, "utf8"));
}

function createMachine(asl: unknown) {
  const names = taskPlaceholders(asl);
  const missing = names.filter((n) => !taskFunctions[n]);
  if (missing.length) throw new Error(`${ASL_FILE} references unknown task workers: ${missing.join(", ")}`);
  const arns = Object.fromEntries(names.map((n) => [n, taskFunctions[n]!.arn]));

  const role = new aws.iam.Role("StorageMoveRole", {
    assumeRolePolicy: JSON.stringify({
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", Principal: { Service: "states.amazonaws.com" }, Action: "sts:AssumeRole" }],
    }),
  });
  // The machine may invoke exactly the task Lambdas its definition names (and their versions).
  const invoke = new aws.iam.RolePolicy("StorageMoveInvoke", {
    role: role.id,
    policy: $jsonStringify({
      Version: "2012-10-17",
      Statement: [
        {
          Effect: "Allow",
          Action: "lambda:InvokeFunction",
          Resource: Object.values(arns).flatMap((arn) => [arn, $interpolate`${arn}:*`]),
        },
      ],
    }),
  });

  // Operators read every execution's steps, inputs and outputs here (`includeExecutionData`), and
  // follow a move across its task Lambdas in X-Ray.
  const logGroup = new aws.cloudwatch.LogGroup("StorageMoveLogs", {
    name: `/aws/vendedlogs/states/${$app.name}-${$app.stage}-storage-moves`,
    retentionInDays: LOG_RETENTION_DAYS,
  });
  // Step Functions delivers its logs through CloudWatch Logs' log delivery API, and its traces to
  // X-Ray; neither accepts a narrower resource than "*".
  const observe = new aws.iam.RolePolicy("StorageMoveObserve", {
    role: role.id,
    policy: JSON.stringify({
      Version: "2012-10-17",
      Statement: [
        {
          Effect: "Allow",
          Action: [
            "logs:CreateLogDelivery",
            "logs:GetLogDelivery",
            "logs:UpdateLogDelivery",
            "logs:DeleteLogDelivery",
            "logs:ListLogDeliveries",
            "logs:PutResourcePolicy",
            "logs:DescribeResourcePolicies",
            "logs:DescribeLogGroups",
          ],
          Resource: "*",
        },
        { Effect: "Allow", Action: ["xray:PutTraceSegments", "xray:PutTelemetryRecords", "xray:GetSamplingRules", "xray:GetSamplingTargets"], Resource: "*" },
      ],
    }),
  });

  const machine = new aws.sfn.StateMachine(
    "StorageMoveStateMachine",
    {
      type: "STANDARD",
      roleArn: role.arn,
      definition: $resolve(arns).apply((resolved) => JSON.stringify(substituteTasks(asl, resolved))),
      loggingConfiguration: { level: "ALL", includeExecutionData: true, logDestination: $interpolate`${logGroup.arn}:*` },
      tracingConfiguration: { enabled: true },
    },
    { dependsOn: [invoke, observe] },
  );

  // The distributed Map ("MoveRepositories") runs each batch of moves as a child execution of this machine.
  const executions = machine.arn.apply((a) => a.replace(":stateMachine:", ":execution:"));
  new aws.iam.RolePolicy("StorageMoveMapRuns", {
    role: role.id,
    policy: $jsonStringify({
      Version: "2012-10-17",
      Statement: [
        { Effect: "Allow", Action: ["states:StartExecution"], Resource: [machine.arn] },
        {
          Effect: "Allow",
          Action: ["states:DescribeExecution", "states:StopExecution"],
          Resource: [$interpolate`${executions}/*`, $interpolate`${executions}:*`],
        },
      ],
    }),
  });

  // `Resource.StorageMoveMachine.arn` at runtime (functions/platform/resources.ts).
  const link = new sst.Linkable("StorageMoveMachine", {
    properties: { arn: machine.arn },
    include: [
      sst.aws.permission({
        actions: ["states:StartExecution", "states:DescribeExecution", "states:StopExecution", "states:ListExecutions"],
        resources: [machine.arn, machine.arn.apply((a) => `${a.replace(":stateMachine:", ":execution:")}:*`)],
      }),
    ],
  });
  // `states:GetExecutionHistory` on this machine's executions (a distributed Map's child executions
  // included), for the functions `EXECUTION_HISTORY_MODULES` names only: the console's execution view.
  const history = new sst.Linkable("StorageMoveHistory", {
    properties: { arn: machine.arn },
    include: [sst.aws.permission({ actions: ["states:GetExecutionHistory"], resources: [$interpolate`${executions}:*`, $interpolate`${executions}/*`] })],
  });
  return { link, history, arn: machine.arn };
}

const asl = readAsl();
const created = asl === undefined ? undefined : createMachine(asl);
export const storageMoveMachine = created?.link;
/** Reading its executions' histories (`EXECUTION_HISTORY_MODULES` in ./plan). */
export const storageMoveHistory = created?.history;
/** The machine's ARN, for its alarms (./alarms). */
export const storageMoveMachineArn = created?.arn;
