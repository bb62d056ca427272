"""The seed's two procedures driven by python-gitlab (Debian's python3-gitlab), as a user runs them.

Storage moves: weights so new repositories land on the new storage, one scheduling call per
repository type, the most recent moves queried until finished, then no project or snippet left on
the source. Key rotation: create a client key, list it next to the old one, delete the old one.
Prints one JSON document with what it saw; the test asserts on it.
"""
import json
import os
import sys
import time

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
gl.auth()
seen = {"user": gl.user.username, "python_gitlab": gitlab.__version__}

suffix = str(int(time.time() * 1000))
group = gl.groups.create({"name": f"Clients {suffix}", "path": f"clients-{suffix}"})
project = gl.projects.create({"name": "py", "namespace_id": group.id, "initialize_with_readme": True})
snippet = gl.snippets.create({"title": "py", "file_name": "a.py", "content": "print(1)\n", "visibility": "private"})
seen["project_storage_before"] = project.repository_storage

# 1. New repositories land only on the new storage.
settings = gl.settings.get()
settings.repository_storages_weighted = {"default": 0, "secondary": 100, "cluster": 0}
settings.save()
seen["weights"] = gl.settings.get().repository_storages_weighted

# 2. One call per repository type on the source storage.
body = {"source_storage_name": "default", "destination_storage_name": "secondary"}
for kind in ("project", "snippet"):
    gl.http_post(f"/{kind}_repository_storage_moves", post_data=body)

# 3. Query the most recent moves until they are finished.
states = {}
for _ in range(600):
    # This python-gitlab release has no storage-move managers: its generic HTTP calls do it.
    states = {f"{kind}:{m['id']}": m["state"] for kind in ("project", "snippet") for m in gl.http_list(f"/{kind}_repository_storage_moves", get_all=False)}
    if states and all(s in ("finished", "failed") for s in states.values()):
        break
    time.sleep(0.2)
seen["move_states"] = sorted(set(states.values()))

# 4. Nothing of ours remains on the source storage.
seen["projects_left_on_default"] = [p.path_with_namespace for p in gl.projects.list(repository_storage="default", iterator=True) if p.namespace["id"] == group.id]
seen["project_storage_after"] = gl.projects.get(project.id).repository_storage
seen["snippet_storage_after"] = gl.http_get(f"/snippets/{snippet.id}").get("repository_storage")

# Key rotation when a DSN leaks.
keys_path = f"/projects/{project.id}/error_tracking/client_keys"
old = gl.http_post(keys_path)
new = gl.http_post(keys_path)
listed = gl.http_get(keys_path)
seen["keys_listed"] = sorted(k["id"] for k in listed)
seen["keys_created"] = sorted([old["id"], new["id"]])
seen["dsn_shape"] = all(k["public_key"] in k["sentry_dsn"] for k in listed)
gl.http_delete(f"{keys_path}/{old['id']}")
seen["keys_after_delete"] = [k["id"] for k in gl.http_get(keys_path)]
seen["new_key_id"] = new["id"]

# A clear error in GitLab's shape reaches the client as an exception with its status.
try:
    gl.http_post("/project_repository_storage_moves", post_data={"source_storage_name": "secondary", "destination_storage_name": "secondary"})
    seen["same_storage"] = None
except gitlab.exceptions.GitlabHttpError as err:
    seen["same_storage"] = {"status": err.response_code, "message": str(err.error_message)}

json.dump(seen, sys.stdout)
