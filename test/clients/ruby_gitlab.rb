# The Ruby gem `gitlab` (Debian's ruby-gitlab), unmodified: `create_tag` with a release description
# (a parameter GitLab no longer declares, which the gem still sends), read back, one project member,
# Markdown, the Sidekiq metrics and the public snippets. Prints what it saw as one JSON object.
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

seen["markdown"] = gl.markdown("Hello **world**", gfm: true, project: project.path_with_namespace).html
seen["sidekiq"] = gl.sidekiq_compound_metrics.to_h.keys.sort
seen["sidekiq_busy"] = gl.sidekiq_process_metrics.processes.sum(&:busy)

snippet = gl.create_user_snippet(title: "rb", visibility: "public", files: [{ file_path: "a.rb", content: "puts 1" }])
seen["public_snippets"] = gl.public_snippets(per_page: 100).map(&:id).include?(snippet.id)

puts JSON.generate(seen)
