/** The operator console's page modules `/-/assets/admin/<name>` serves (`../http/assets.ts`). */
import { CONSOLE_JS } from "./console-js.js";
import { STORAGES_JS } from "./storages-js.js";
import { MOVES_JS } from "./moves-js.js";
import { MOVE_JS } from "./move-js.js";
import { PLAN_JS } from "./plan-js.js";

export const ADMIN_ASSETS: Record<string, string> = {
  "console.js": CONSOLE_JS,
  "storages.js": STORAGES_JS,
  "moves.js": MOVES_JS,
  "move.js": MOVE_JS,
  "plan.js": PLAN_JS,
};
