"""python-gitlab, unmodified, on a project's history: a single commit (`commits.get`), a comparison
of two branches (`repository_compare`), the contributors (`repository_contributors`), the languages
(`languages`) and a cherry-pick (`commit.cherry_pick`). Prints what it saw as one JSON object."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
seen = {}

project = gl.projects.create({"name": "py-history", "initialize_with_readme": True})
feature = project.commits.create({
    "branch": "feature",
    "start_branch": "main",
    "commit_message": "Add the app",
    "actions": [{"action": "create", "file_path": "app.py", "content": "print('hi')\n"}],
})
seen["feature_id"] = feature.id

commit = project.commits.get(feature.id)
seen["commit"] = {"id": commit.id, "title": commit.title, "stats": commit.stats, "status": commit.status}
seen["commit_by_branch"] = project.commits.get("feature").id

compare = project.repository_compare("main", "feature")
seen["compare_commits"] = [c["id"] for c in compare["commits"]]
seen["compare_diffs"] = [d["new_path"] for d in compare["diffs"]]

seen["contributors"] = [(c["email"], c["commits"]) for c in project.repository_contributors(ref="feature")]
picked = commit.cherry_pick(branch="main")
seen["picked_to_main"] = project.commits.get("main").title
seen["picked_author"] = project.commits.get("main").author_name == commit.author_name
# The default branch, which has the app since the cherry-pick.
seen["languages"] = project.languages()

print(json.dumps(seen))
