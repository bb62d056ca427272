/**
 * `transactUntilSettled` on what DynamoDB Local never produces (it serialises transactions): a
 * `TransactionConflict` cancellation is retried with backoff, and gives up after its attempts so SQS
 * redelivers the message.
 */
import { describe, it, expect, vi } from "vitest";

const transact = vi.fn();
vi.mock("../../functions/platform/db/table.js", () => ({ transact }));
const { transactUntilSettled, cancellationCodes } = await import("../../functions/errortracking/domain/tx.js");

const cancelled = (...codes: string[]) => Object.assign(new Error("cancelled"), { name: "TransactionCanceledException", CancellationReasons: codes.map((Code) => ({ Code })) });

describe("transactUntilSettled", () => {
  it("retries conflicts, then settles", async () => {
    transact.mockReset().mockRejectedValueOnce(cancelled("None", "TransactionConflict")).mockRejectedValueOnce(cancelled("TransactionConflict", "None")).mockResolvedValueOnce(undefined);
    const onCancel = vi.fn();
    await expect(transactUntilSettled({ build: () => [], onSuccess: () => "ok", onCancel })).resolves.toBe("ok");
    expect(transact).toHaveBeenCalledTimes(3);
    expect(onCancel).not.toHaveBeenCalled();
  });

  it("hands condition failures to onCancel and gives up after maxAttempts", async () => {
    transact.mockReset().mockRejectedValue(cancelled("ConditionalCheckFailed"));
    const onCancel = vi.fn().mockReturnValue({ retry: true });
    await expect(transactUntilSettled({ build: () => [], onSuccess: () => "ok", onCancel, maxAttempts: 3 })).rejects.toThrow("cancelled");
    expect(onCancel).toHaveBeenCalledTimes(2);
    expect(cancellationCodes(new Error("other"))).toBeUndefined();
  });
});
