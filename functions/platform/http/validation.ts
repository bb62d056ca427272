/**
 * zod issues → GitLab's Grape parameter errors, e.g. `{"error":"name is missing, visibility does not
 * have a valid value"}`. Other surfaces register their own translation.
 */
import * as z from "zod/mini";
import { en } from "zod/locales";
import { ApiError, paramError } from "./errors.js";
import type { Surface } from "./app.js";

type ZodError = z.core.$ZodError;

// zod/mini loads no messages of its own; the translation below reads zod's English ones.
z.config(en());

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
      case "unrecognized_keys":
        for (const key of issue.keys) parts.push(`${path ? path + "." : ""}${key} is not a recognized parameter`);
        break;
      case "invalid_value":
        parts.push(`${name} does not have a valid value`);
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
