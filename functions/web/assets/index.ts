/** Every asset `/-/assets/<name>` serves, as TypeScript string constants (bundled with the Lambda). */
import { APP_CSS } from "./app-css.js";
import { BAR_CHART_JS } from "./bar-chart-js.js";
import { COMMON_JS } from "./common-js.js";
import { ERROR_LIST_JS } from "./error-list-js.js";
import { ERROR_DETAIL_JS } from "./error-detail-js.js";
import { SETTINGS_JS } from "./settings-js.js";
import { FRAMES_JS } from "./frames-js.js";
import { ERROR_EVENTS_JS } from "./error-events-js.js";
import { ERROR_EVENT_JS } from "./error-event-js.js";

const js = (body: string) => ({ body, type: "text/javascript; charset=utf-8" });

export const ASSETS: Record<string, { body: string; type: string }> = {
  "app.css": { body: APP_CSS, type: "text/css; charset=utf-8" },
  "common.js": js(COMMON_JS),
  "error-list.js": js(ERROR_LIST_JS),
  "error-detail.js": js(ERROR_DETAIL_JS),
  "settings.js": js(SETTINGS_JS),
  "frames.js": js(FRAMES_JS),
  "error-events.js": js(ERROR_EVENTS_JS),
  "error-event.js": js(ERROR_EVENT_JS),
  "bar-chart.js": js(BAR_CHART_JS),
};
