"""python-gitlab, unmodified, walking every page of the project list (`get_all=True`): it follows
each answer's `Link: <...>; rel="next"` URL, so that URL must name the server it called, over the
scheme it called it with. Prints what it saw as one JSON object."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
created = sorted(gl.projects.create({"name": f"py-page-{i}"}).id for i in range(5))
listed = sorted(p.id for p in gl.projects.list(get_all=True, per_page=2))
print(json.dumps({"created": created, "listed": listed, "python_gitlab": gitlab.__version__}))
