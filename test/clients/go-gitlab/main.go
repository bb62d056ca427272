// go-gitlab (Debian's golang-github-xanzy-go-gitlab-dev) against the service: an administrator
// creates a project on a named storage, reads it back, and moves it by updating the storage, as
// go-gitlab's users call CreateProject and EditProject. Prints what it saw as JSON.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/xanzy/go-gitlab"
)

func fail(step string, err error) {
	fmt.Fprintf(os.Stderr, "%s: %v\n", step, err)
	os.Exit(1)
}

func main() {
	git, err := gitlab.NewClient(os.Getenv("GITLAB_TOKEN"), gitlab.WithBaseURL(os.Getenv("GITLAB_URL")+"/api/v4"))
	if err != nil {
		fail("client", err)
	}
	name := fmt.Sprintf("go-gitlab-%d", time.Now().UnixNano())
	created, _, err := git.Projects.CreateProject(&gitlab.CreateProjectOptions{
		Name:                 gitlab.String(name),
		RepositoryStorage:    gitlab.String("secondary"),
		InitializeWithReadme: gitlab.Bool(true),
	})
	if err != nil {
		fail("CreateProject", err)
	}
	read, _, err := git.Projects.GetProject(created.ID, nil)
	if err != nil {
		fail("GetProject", err)
	}
	if _, _, err = git.Projects.EditProject(created.ID, &gitlab.EditProjectOptions{RepositoryStorage: gitlab.String("default")}); err != nil {
		fail("EditProject", err)
	}
	// The update schedules a storage move; the project reports its new storage once it finished.
	moved := read.RepositoryStorage
	for i := 0; i < 600 && moved != "default"; i++ {
		time.Sleep(100 * time.Millisecond)
		p, _, err := git.Projects.GetProject(created.ID, nil)
		if err != nil {
			fail("GetProject after EditProject", err)
		}
		moved = p.RepositoryStorage
	}
	json.NewEncoder(os.Stdout).Encode(map[string]interface{}{
		"created_storage": created.RepositoryStorage,
		"read_storage":    read.RepositoryStorage,
		"moved_storage":   moved,
		"name":            read.Name,
		"expected_name":   name,
	})
}
