/**
 * What isolated mode passes a function beyond its links: the runtime's switch for the AWS SDK's
 * Node-version warning (set once on Node 20, where the runtime prints its own one-line notice), so
 * function processes do not each print the SDK's nine lines at their cold start; nothing else of the
 * parent's environment that is not a FORGELINE_ tuning setting.
 */
import { describe, it, expect } from "vitest";
import { functionEnvironment } from "../../local/isolated/environment.js";

const sources = (parent: NodeJS.ProcessEnv) => ({ parent, instanceConfigJson: "{}", variables: {}, deniedEndpoint: "http://127.0.0.1:9" });

describe("a function's environment in isolated mode", () => {
  it("carries the SDK's version-warning switch only when the runtime set it", () => {
    const quiet = functionEnvironment("identity/http/version", "route", sources({ AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true", HOME: "/root", SOME_SECRET: "x" }));
    expect(quiet.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED).toBe("true");
    expect(quiet).not.toHaveProperty("HOME");
    expect(quiet).not.toHaveProperty("SOME_SECRET");
    expect(functionEnvironment("identity/http/version", "route", sources({}))).not.toHaveProperty("AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED");
  });
});
