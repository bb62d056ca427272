"""The real Python sentry_sdk in its own process: COUNT exceptions of one kind (ERROR_TEXT), then flush.

Each message is numbered: the SDK's dedupe integration drops an event equal to the one before it, and
grouping (type, culprit, platform) ignores the message, so they all land in one error.
"""
import json
import os

import sentry_sdk

sentry_sdk.init(dsn=os.environ["SENTRY_DSN"], release="hooks@1.0.0", environment="test", traces_sample_rate=0)
for i in range(int(os.environ.get("COUNT", "1"))):
    try:
        raise LookupError("%s #%d" % (os.environ.get("ERROR_TEXT", "python hook error"), i + 1))
    except LookupError:
        sentry_sdk.capture_exception()
sentry_sdk.flush(timeout=10)
print(json.dumps({"flushed": True}))
