"""Adapter conftest for python-gitlab's functional tests (v3.12.0), run against this service.

Upstream's conftest starts a GitLab container with docker-compose, waits for it and resets it. Here
the instance is already running (the test harness starts a fresh one and passes `GITLAB_URL` and
`GITLAB_TOKEN`, an administrator's token), so this file replaces only that machinery: the URL and
token, and the python-gitlab config file the tests read. Every other fixture (user, group, project,
snippet data, keys, and the wait for background jobs, which polls `GET /sidekiq/process_metrics`
until no process is busy) is upstream's own, imported unchanged from
`upstream_conftest.py` (the harness puts upstream's conftest there), so no test body or data fixture
differs from what upstream runs against GitLab.
"""
import os
import pathlib

import pytest

import gitlab
from tests.functional import helpers
from tests.functional.upstream_conftest import (  # noqa: F401  (fixtures, registered by import)
    DEPLOY_KEY,
    GPG_KEY,
    SSH_KEY,
    deploy_token,
    epic,
    gitlab_premium,
    gitlab_ultimate,
    gitlab_version,
    group,
    group_deploy_token,
    group_label,
    issue,
    label,
    merge_request,
    milestone,
    project,
    project_file,
    release,
    service,
    user,
    variable,
    wait_for_sidekiq,
)


def pytest_configure(config):
    # Upstream declares these in its pyproject.toml, which the harness copies; repeated here so the
    # adapter also works from a checkout whose pytest settings are not picked up.
    config.addinivalue_line("markers", "gitlab_premium: marks tests that require GitLab Premium")
    config.addinivalue_line("markers", "gitlab_ultimate: marks tests that require GitLab Ultimate")


@pytest.fixture(scope="session")
def fixture_dir() -> pathlib.Path:
    return pathlib.Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
def temp_dir(tmp_path_factory) -> pathlib.Path:
    return tmp_path_factory.mktemp("python-gitlab")


@pytest.fixture(scope="session")
def gitlab_url() -> str:
    return os.environ["GITLAB_URL"]


@pytest.fixture(scope="session")
def gitlab_config(gitlab_url: str, temp_dir: pathlib.Path) -> pathlib.Path:
    """The config file upstream writes after creating its token (`test_auth_from_config` reads it)."""
    config_file = temp_dir / "python-gitlab.cfg"
    config_file.write_text(
        f"""[global]
default = local
timeout = 60

[local]
url = {gitlab_url}
private_token = {os.environ["GITLAB_TOKEN"]}
api_version = 4
""",
        encoding="utf-8",
    )
    return config_file


@pytest.fixture(scope="session")
def gl(gitlab_config: pathlib.Path) -> gitlab.Gitlab:
    """A fresh instance per run: upstream's reset (deleting everything but root) has nothing to do."""
    return gitlab.Gitlab.from_config("local", [gitlab_config])


@pytest.fixture(scope="session")
def gitlab_plan(gl: gitlab.Gitlab):
    return helpers.get_gitlab_plan(gl)

