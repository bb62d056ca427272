"""python-gitlab, unmodified, on one project member (`project.members.get(id)`, changed and saved),
one effective member (`members_all.get(id)`), sharing a project with a group (`share`, `unshare`,
the group's `shared_projects`, the project's `users`) and an access request (requested by the user,
listed and approved by an administrator). Prints what it saw as one JSON object."""
import json
import os

import gitlab

url = os.environ["GITLAB_URL"]
gl = gitlab.Gitlab(url, private_token=os.environ["GITLAB_TOKEN"])
seen = {}


def new_user(name):
    user = gl.users.create({"username": name, "name": name.title(), "email": f"{name}@example.com"})
    return user, user.personal_access_tokens.create({"name": "py", "scopes": ["api"]}).token


alice, _ = new_user("py_alice")
bob, _ = new_user("py_bob")
carol, carol_token = new_user("py_carol")
seen["ids"] = {"alice": alice.id, "bob": bob.id, "carol": carol.id}

project = gl.projects.create({"name": "py-members"})
project.members.create({"user_id": alice.id, "access_level": 30})
member = project.members.get(alice.id)
seen["member"] = [member.id, member.username, member.access_level]
member.access_level = 40
member.save()
seen["member_after_save"] = project.members.get(alice.id).access_level
seen["member_all"] = project.members_all.get(alice.id).access_level

group = gl.groups.create({"name": "py-share-team", "path": "py-share-team"})
group.members.create({"user_id": bob.id, "access_level": 30})
seen["group_member_all"] = group.members_all.get(bob.id).access_level
project.share(group.id, 20)
seen["shared_member_all"] = project.members_all.get(bob.id).access_level
seen["users"] = sorted(u.id for u in project.users.list(get_all=True))
seen["shared_projects"] = [p.id for p in group.shared_projects.list(get_all=True)]
seen["shared_with_groups"] = [g["group_id"] for g in gl.projects.get(project.id).shared_with_groups]
project.unshare(group.id)
try:
    project.members_all.get(bob.id)
    seen["after_unshare"] = "found"
except gitlab.exceptions.GitlabGetError as err:
    seen["after_unshare"] = err.response_code

open_project = gl.projects.create({"name": "py-open", "visibility": "public"})
as_carol = gitlab.Gitlab(url, private_token=carol_token)
as_carol.projects.get(open_project.id, lazy=True).accessrequests.create({})
requests = open_project.accessrequests.list(get_all=True)
seen["requests"] = [r.id for r in requests]
requests[0].approve(access_level=20)
seen["approved_level"] = open_project.members.get(carol.id).access_level
seen["requests_after"] = [r.id for r in open_project.accessrequests.list(get_all=True)]
seen["project_id"] = project.id

print(json.dumps(seen))
