/**
 * A recording stand-in for the globals SST injects into `run()` (`sst`, `aws`, `$app`, `$output`, …),
 * just enough to execute `sst.config.ts` and `stacks/` in vitest and see which resources they declare
 * with which arguments. Outputs are plain values wrapped in `FakeOutput`; nothing reaches AWS.
 */
type Args = Record<string, any>;

export class FakeOutput<T> {
  constructor(readonly value: T) {}
  apply<U>(fn: (v: T) => U): FakeOutput<U> {
    return new FakeOutput(fn(this.value));
  }
}

/** Deeply replaces FakeOutputs by their values (what Pulumi does when it resolves inputs). */
export function unwrap(v: any): any {
  if (v instanceof FakeOutput) return unwrap(v.value);
  if (Array.isArray(v)) return v.map(unwrap);
  if (v && typeof v === "object" && v.constructor === Object) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrap(x)]));
  }
  return v;
}

export interface Declared {
  type: string;
  name: string;
  args: Args;
  resource: FakeResource;
}

export const declared: Declared[] = [];

export class FakeResource {
  readonly calls: { method: string; args: any[] }[] = [];
  constructor(
    readonly type: string,
    readonly name: string,
    readonly args: Args = {},
  ) {
    declared.push({ type, name, args, resource: this });
  }
  get arn() {
    return new FakeOutput(`arn:fake:${this.type}:${this.name}`);
  }
  get id() {
    return new FakeOutput(`${this.name}-id`);
  }
  get url() {
    return new FakeOutput(`https://${this.name}.example`);
  }
  get properties() {
    return this.args.properties;
  }
  /** SST components' underlying Pulumi resources (`api.nodes.api.id`). */
  get nodes() {
    return new Proxy({}, { get: (_t, node) => ({ id: new FakeOutput(`${this.name}-${String(node)}-id`), arn: new FakeOutput(`arn:fake:${this.name}:${String(node)}`) }) });
  }
  /** sst.Secret's value (an Output on AWS). */
  get value() {
    return new FakeOutput(this.args.value ?? `<secret ${this.name}>`);
  }
  /** ApiGatewayV2.route: applies `transform.route.handler` to the function args, as SST does. */
  route(key: string, handler: string | Args) {
    const fn: Args = typeof handler === "string" ? { handler } : { ...handler };
    this.args.transform?.route?.handler?.(fn, {}, key);
    this.calls.push({ method: "route", args: [key, fn] });
  }
  subscribe(...args: any[]) {
    this.calls.push({ method: "subscribe", args });
  }
}

const kind = (type: string) =>
  class extends FakeResource {
    constructor(name: string, args?: any) {
      super(type, name, typeof args === "object" ? args : { value: args });
    }
  };

const globals = ["$config", "$app", "$output", "$resolve", "$jsonStringify", "$interpolate", "sst", "aws"];

/** Removes the fakes, so later test files in the same worker see a normal Node global scope. */
export function uninstallFakeSst() {
  for (const name of globals) delete (globalThis as any)[name];
  declared.length = 0;
}

export function installFakeSst(stage = "test") {
  const g = globalThis as any;
  g.$config = (c: unknown) => c;
  g.$app = { name: "forgeline", stage };
  g.$output = (v: unknown) => new FakeOutput(unwrap(v));
  g.$resolve = (v: unknown) => new FakeOutput(unwrap(v));
  g.$jsonStringify = (v: unknown) => new FakeOutput(JSON.stringify(unwrap(v)));
  g.$interpolate = (s: TemplateStringsArray, ...vs: unknown[]) =>
    new FakeOutput(s.raw.reduce((acc, part, i) => acc + part + (i < vs.length ? String(unwrap(vs[i])) : ""), ""));
  g.sst = {
    Secret: kind("sst.Secret"),
    Linkable: kind("sst.Linkable"),
    aws: {
      permission: (p: Args) => ({ type: "aws.permission", ...p }),
      ...Object.fromEntries(
        ["Dynamo", "Vpc", "Efs", "Queue", "Function", "ApiGatewayV2", "CronV2", "SnsTopic"].map((n) => [n, kind(`sst.aws.${n}`)]),
      ),
    },
  };
  g.aws = {
    efs: { AccessPoint: kind("aws.efs.AccessPoint") },
    iam: { Role: kind("aws.iam.Role"), RolePolicy: kind("aws.iam.RolePolicy") },
    sfn: { StateMachine: kind("aws.sfn.StateMachine") },
    cloudwatch: { LogGroup: kind("aws.cloudwatch.LogGroup"), MetricAlarm: kind("aws.cloudwatch.MetricAlarm") },
  };
}
