/**
 * zod issues → GitLab's Grape parameter errors, e.g. `{"error":"name is missing, visibility does not
 * have a valid value"}`. Other surfaces register their own translation.
 */
import type { $ZodError as ZodError } from "zod/v4/core";
import "../zod-messages.js";
import { ApiError, paramError } from "./errors.js";
import type { Surface } from "./app.js";

type Translator = (err: ZodError) => ApiError;
const translators: Partial<Record<Surface, Translator>> = {};

export function registerZodTranslator(surface: Surface, t: Translator): void {
  translators[surface] = t;
}

export function gitlabParamError(err: ZodError): ApiError {
  const parts: string[] = [];
  for (const issue of err.issues) {
    const path = issue.path.map(String).join(".");
    const name = path || "body";
    switch (issue.code) {
      case "invalid_type":
        // zod 4 omits `input` from issues unless asked; its message names the received type.
        parts.push(/received undefined$/.test(issue.message) ? `${name} is missing` : `${name} is invalid`);
        break;
      case "invalid_value":
        parts.push(`${name} does not have a valid value`);
        break;
      case "invalid_union":
        // A value that may be spelled several ways (`5` or `"5"`) and is absent fails every branch as undefined.
        parts.push(issue.errors.length > 0 && issue.errors.every((branch) => branch.some((i) => i.code === "invalid_type" && /received undefined$/.test(i.message))) ? `${name} is missing` : `${name} is invalid`);
        break;
      case "too_big":
      case "too_small":
        parts.push(`${name} ${issue.message.replace(/^Too (big|small): /, "").replace(/^expected .* to /, "must ")}`);
        break;
      default:
        parts.push(`${name} is invalid`);
    }
  }
  return paramError([...new Set(parts)].join(", "));
}

export function translateZodError(err: ZodError, surface: Surface): ApiError {
  return (translators[surface] ?? gitlabParamError)(err);
}
