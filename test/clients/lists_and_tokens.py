"""python-gitlab, unmodified, on project lists (archived, membership, totals, keyset), group and
member list totals, a recursive tree (`recursive=True`) and personal access tokens (list by user,
delete). Prints what it saw as one JSON object."""
import json
import os
import warnings

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
seen = {}

kept = gl.projects.create({"name": "py-kept"})
archived = gl.projects.create({"name": "py-archived"})
archived.archive()
seen["archived_listed"] = [p.id for p in gl.projects.list(membership=True, archived=True, iterator=True)]
seen["archived_id"] = archived.id
seen["unarchived_listed"] = sorted(p.id for p in gl.projects.list(membership=True, archived=False, iterator=True))
seen["kept_id"] = kept.id

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    listing = gl.projects.list(iterator=True, per_page=1)
    seen["total"] = listing.total
    seen["total_pages"] = listing.total_pages
    seen["walked"] = len(list(listing))
    seen["warnings"] = [str(w.message) for w in caught]
seen["keyset"] = [p.id for p in gl.projects.list(pagination="keyset", order_by="id", sort="asc", per_page=1, iterator=True)]

for name in ("py-group-a", "py-group-b"):
    group = gl.groups.create({"name": name, "path": name})
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    groups = gl.groups.list(iterator=True, per_page=1)
    seen["group_total"] = groups.total
    seen["group_walked"] = len(list(groups))
    members = group.members.list(iterator=True, per_page=1)
    seen["member_total"] = members.total
    seen["group_warnings"] = [str(w.message) for w in caught]

kept.commits.create({
    "branch": kept.default_branch or "main",
    "commit_message": "nested",
    "actions": [{"action": "create", "file_path": "docs/guide/intro.md", "content": "hello"}],
})
seen["tree"] = sorted(item["path"] for item in kept.repository_tree(recursive=True, get_all=True))

user = gl.users.create({"username": "py_tokens", "name": "Py Tokens", "email": "py_tokens@example.com"})
token = user.personal_access_tokens.create({"name": "ci", "scopes": ["api"]})
seen["tokens_before"] = [t.id for t in gl.personal_access_tokens.list(user_id=user.id)]
seen["token_id"] = token.id
gl.personal_access_tokens.delete(token.id)
seen["tokens_after"] = [(t.id, t.revoked) for t in gl.personal_access_tokens.list(user_id=user.id)]

print(json.dumps(seen))
