/**
 * DynamoDB keys of the identity context, named by the access pattern that reads them.
 *
 * | item            | pk                     | sk          | gsi1pk                 | gsi1sk     |
 * |-----------------|------------------------|-------------|------------------------|------------|
 * | user            | USER#<id>              | USER        | USERS                  | <id pad>   |
 * | username claim  | NAMESPACE#<path lower> | NAMESPACE   |                        |            |
 * | e-mail claim    | EMAIL#<email lower>    | EMAIL       |                        |            |
 * | token           | PAT#<sha256 of token>  | PAT         | USER#<id>#PATS         | <id pad>   |
 * |   (gsi2)        |                        |             | gsi2pk PATS            | gsi2sk <id pad> (all tokens, and one by id) |
 * | user activity   | USER#<id>              | ACTIVITY    | ACTIVE_USERS           | <day>#<id pad> |
 * | user status     | USER#<id>              | STATUS      |                        |            |
 * | user preferences| USER#<id>              | PREFERENCES |                        |            |
 * | app settings    | SETTINGS               | APPLICATION |                        |            |
 * | API throttle    | THROTTLE#<user>#<period>#<window> | COUNT | (`throttle.ts`; expires by TTL) | |
 */
import { pad } from "../../platform/db/table.js";

export const userKey = (id: number) => ({ pk: `USER#${id}`, sk: "USER" });
export const allUsersIndex = (id: number) => ({ gsi1pk: "USERS", gsi1sk: pad(id) });
/** Users and groups share one namespace of paths, as in GitLab. */
export const namespaceClaimKey = (path: string) => ({ pk: `NAMESPACE#${path.toLowerCase()}`, sk: "NAMESPACE" });
export const emailClaimKey = (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: "EMAIL" });
export const tokenKey = (hash: string) => ({ pk: `PAT#${hash}`, sk: "PAT" });
export const tokensOfUserIndex = (userId: number, id: number) => ({ gsi1pk: `USER#${userId}#PATS`, gsi1sk: pad(id) });
export const allTokensIndex = (id: number) => ({ gsi2pk: "PATS", gsi2sk: pad(id) });
/**
 * A user's last active day (GitLab's `last_activity_on`), an item beside the user's (whose gsi2 lists
 * users by state): `GET /user/activities` Queries the day range of `ACTIVE_USERS`, oldest first.
 */
export const userActivityItem = (userId: number, day: string) => ({ ...userKey(userId), sk: "ACTIVITY", gsi1pk: "ACTIVE_USERS", gsi1sk: `${day}#${pad(userId)}` });
export const settingsKey = { pk: "SETTINGS", sk: "APPLICATION" };
/** A user's status (GitLab's `UserStatus`) and preferences, items of their own beside the user's. */
export const userStatusKey = (userId: number) => ({ pk: `USER#${userId}`, sk: "STATUS" });
export const userPreferencesKey = (userId: number) => ({ pk: `USER#${userId}`, sk: "PREFERENCES" });
