/** How a failure becomes a move's `error_message`, and how errors are named for the ASL's retriers. */
import { describe, it, expect } from "vitest";
import { failureMessage } from "../../functions/moves/domain/completion.js";
import { classifyError, StorageIOError } from "../../functions/moves/domain/errors.js";
import { truncateError } from "../../functions/moves/domain/records.js";

describe("error_message", () => {
  it("takes a Lambda error's message out of the Cause Step Functions reports", () => {
    const cause = JSON.stringify({ errorType: "ChecksumMismatchError", errorMessage: "Failed to verify project repository checksum from a to b", trace: ["at x"] });
    expect(failureMessage({ Error: "ChecksumMismatchError", Cause: cause })).toBe("Failed to verify project repository checksum from a to b");
    expect(failureMessage({ Error: "Error", Cause: "plain words" })).toBe("plain words");
    expect(failureMessage({ Error: "States.Timeout" })).toBe("States.Timeout");
    expect(failureMessage(undefined)).toBe("Unknown error");
  });

  it("is at most 256 characters, cut like Rails' truncate", () => {
    expect(truncateError("x".repeat(256))).toBe("x".repeat(256));
    const cut = truncateError("y".repeat(300));
    expect(cut).toHaveLength(256);
    expect(cut.endsWith("...")).toBe(true);
    expect(failureMessage({ Cause: "z".repeat(1000) })).toHaveLength(256);
  });
});

describe("error names", () => {
  it("makes file-system errors that retrying cannot fix permanent, and leaves others retryable", () => {
    const blocked = Object.assign(new Error("ENOTDIR: not a directory, mkdir '/x'"), { code: "ENOTDIR" });
    expect(classifyError(blocked)).toBeInstanceOf(StorageIOError);
    const busy = Object.assign(new Error("EBUSY: resource busy"), { code: "EBUSY" });
    expect(classifyError(busy)).toBe(busy);
    const throttled = Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException" });
    expect(classifyError(throttled)).toBe(throttled);
  });
});
