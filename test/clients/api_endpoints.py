"""python-gitlab, unmodified, on the GitLab endpoints scripts reach for next: a group's projects
(`group.projects.list()`, with subgroups), user moderation (`deactivate`, `activate`, `approve`),
the current user's status and everyone's activities, moving a project into a group, fork relations
and restoring a project. Prints what it saw as one JSON object."""
import json
import os

import gitlab

url = os.environ["GITLAB_URL"]
gl = gitlab.Gitlab(url, private_token=os.environ["GITLAB_TOKEN"])
seen = {}

group = gl.groups.create({"name": "py-endpoints", "path": "py-endpoints"})
subgroup = gl.groups.create({"name": "py-endpoints-sub", "path": "sub", "parent_id": group.id})
first = gl.projects.create({"name": "py-first", "namespace_id": group.id})
second = gl.projects.create({"name": "py-second", "namespace_id": group.id})
below = gl.projects.create({"name": "py-below", "namespace_id": subgroup.id})
seen["group_projects"] = [p.id for p in group.projects.list(get_all=True)]
seen["group_projects_with_subgroups"] = sorted(p.id for p in group.projects.list(get_all=True, include_subgroups=True))
seen["group_projects_names"] = [p.name for p in group.projects.list(get_all=True, order_by="name", sort="asc")]
seen["group_project_namespace"] = group.projects.list(get_all=True)[0].namespace["id"]
seen["created"] = {"first": first.id, "second": second.id, "below": below.id, "group": group.id}

dormant = gl.users.create({"username": "py_dormant", "name": "Dormant", "email": "py_dormant@example.com"})
seen["deactivate"] = dormant.deactivate()
seen["deactivated_state"] = gl.users.get(dormant.id).state
seen["activate"] = dormant.activate()
seen["activated_state"] = gl.users.get(dormant.id).state
try:
    dormant.approve()
    seen["approve"] = "approved"
except gitlab.exceptions.GitlabUserApproveError as err:
    seen["approve"] = [err.response_code, err.error_message]

gl.auth()
status = gl.user.status.get()
status.message = "Deploying"
status.emoji = "rocket"
status.save()
seen["status"] = [gl.user.status.get().message, gl.users.get(gl.user.id).status.get().emoji]
seen["activity_users"] = [a.username for a in gl.user_activities.list(get_all=True)]

loose = gl.projects.create({"name": "py-loose"})
group.transfer_project(loose.id)
seen["transferred_namespace"] = gl.projects.get(loose.id).namespace["id"]
source = gl.projects.create({"name": "py-source"})
target = gl.projects.create({"name": "py-target"})
target.create_fork_relation(source.id)
seen["forked_from"] = gl.projects.get(target.id).forked_from_project["id"]
target.delete_fork_relation()
seen["unforked"] = "forked_from_project" not in gl.projects.get(target.id).attributes
try:
    target.restore()
    seen["restore"] = "restored"
except gitlab.exceptions.GitlabRestoreError as err:
    seen["restore"] = [err.response_code, err.error_message]
seen["more"] = {"loose": loose.id, "source": source.id}

print(json.dumps(seen))
