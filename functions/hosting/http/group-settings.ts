/**
 * The group settings GitLab's group create and update take that this service keeps (`GroupSettings`);
 * a module of their own, so that the other routes' bundles do not build their schemas.
 */
import * as z from "zod/mini";
import { bool } from "../../platform/http/params.js";
import type { GroupSettings } from "../domain/groups.js";

export const groupSettingFields = { request_access_enabled: z.optional(bool()), share_with_group_lock: z.optional(bool()) };

export const chosenGroupSettings = (body: { request_access_enabled?: boolean; share_with_group_lock?: boolean }): GroupSettings => ({
  requestAccessEnabled: body.request_access_enabled,
  shareWithGroupLock: body.share_with_group_lock,
});
