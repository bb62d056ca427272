"""GitLab's repository files API driven by python-gitlab (Debian's python3-gitlab) as its docs show it.

Creates, reads, updates and deletes one file with project.files, then prints one JSON document
with what the client saw; the test compares it with the repository.
"""
import base64
import json
import os
import time

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.create({"name": f"files-{int(time.time() * 1000)}", "initialize_with_readme": True})
seen = {"project_id": project.id}

created = project.files.create(
    {
        "file_path": "lib/class.rb",
        "branch": "main",
        "content": base64.b64encode(b"class Py\nend\n").decode(),
        "encoding": "base64",
        "author_email": "py@example.com",
        "author_name": "Python Client",
        "commit_message": "python create",
    }
)
seen["created"] = {"file_path": created.file_path, "branch": created.branch}

try:
    project.files.create({"file_path": "lib/class.rb", "branch": "main", "content": "x", "commit_message": "dup"})
except gitlab.exceptions.GitlabCreateError as e:
    seen["duplicate"] = {"status": e.response_code, "message": e.error_message}

f = project.files.get(file_path="lib/class.rb", ref="main")
seen["got"] = {k: getattr(f, k) for k in ("file_name", "file_path", "size", "encoding", "content_sha256", "ref", "blob_id", "commit_id", "last_commit_id", "execute_filemode")}
seen["decoded"] = f.decode().decode()
seen["raw"] = project.files.raw(file_path="lib/class.rb", ref="main").decode()

seen_commit = f.last_commit_id  # save() replaces the object's attributes with the answer
f.content = "class Py2\nend\n"
f.save(branch="main", commit_message="python update")
seen["after_update"] = project.files.get(file_path="lib/class.rb", ref="main").decode().decode()

try:
    project.files.update("lib/class.rb", {"branch": "main", "content": "lost", "commit_message": "stale", "last_commit_id": seen_commit})
except gitlab.exceptions.GitlabUpdateError as e:
    seen["stale"] = {"status": e.response_code, "message": e.error_message}

seen["blame"] = [[r["commit"]["message"], r["lines"]] for r in project.files.blame(file_path="lib/class.rb", ref="main")]

project.files.get(file_path="lib/class.rb", ref="main").delete(branch="main", commit_message="python delete")
try:
    project.files.get(file_path="lib/class.rb", ref="main")
except gitlab.exceptions.GitlabGetError as e:
    seen["after_delete"] = {"status": e.response_code, "message": e.error_message}

print(json.dumps(seen))
