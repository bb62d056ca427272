/** zod schemas shared by the user endpoints. */
import * as z from "zod/mini";
import { positiveInt } from "../../platform/http/params.js";

/**
 * GitLab's e-mail rule (Devise's `email_regexp`): something, one `@`, something, no spaces. It
 * accepts what GitLab accepts (`user@email.com.2`), unlike stricter RFC-style checks.
 */
export const userEmail = () => z.string().check(z.maxLength(255), z.regex(/^[^@\s]+@[^@\s]+$/));

export const userParams = z.object({ user_id: positiveInt() });
