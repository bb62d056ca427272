# The Ruby gem `gitlab` (Debian's ruby-gitlab), unmodified: `create_tag` with a release description
# (a parameter GitLab no longer declares, which the gem still sends), read back, and one project
# member. Prints what it saw as one JSON object.
require "gitlab"
require "json"

gl = Gitlab.client(endpoint: "#{ENV.fetch('GITLAB_URL')}/api/v4", private_token: ENV.fetch("GITLAB_TOKEN"))
seen = { "gem" => Gitlab::VERSION }

project = gl.create_project("rb-tags-#{Process.pid}", initialize_with_readme: true)
tag = gl.create_tag(project.id, "v1.0", "main", "Release 1.0", "The release notes")
seen["tag"] = [tag.name, tag.message, tag.commit.id == gl.branch(project.id, "main").commit.id]
seen["tag_read"] = gl.tag(project.id, "v1.0").name
seen["tags"] = gl.tags(project.id).map(&:name)

user = gl.create_user("rb_member_#{Process.pid}@example.com", "secret-password-1", "rb_member_#{Process.pid}", name: "Rb Member")
gl.add_team_member(project.id, user.id, 30)
member = gl.team_member(project.id, user.id)
seen["member"] = [member.id == user.id, member.access_level]

puts JSON.generate(seen)
