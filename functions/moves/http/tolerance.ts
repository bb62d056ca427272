/** A rebalance's tolerance: percentage points, 0–100, as a number or its query-string spelling. */
import * as z from "zod/mini";

export const DEFAULT_TOLERANCE = 5;

export const percentage = () =>
  z.pipe(
    z.union([z.number(), z.pipe(z.string().check(z.regex(/^\d+(\.\d+)?$/)), z.transform(Number))]),
    z.number().check(z.minimum(0), z.maximum(100)),
  );
