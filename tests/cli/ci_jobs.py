#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ci_jobs.py: runs a job of the GitHub Action (action.yml) or of the GitLab
CI template (uploader/ci/gitlab-ci.yml) as the host would, from the YAML
file itself, for the tests (tests/cli/ci_action.sh, ci_secrets.sh).

  ci_jobs.py github ACTION_YML INPUTS_JSON JOB_DIR
      the action's steps with the workflow's inputs ({"mode": "measure",
      ...}): each step's "if:", its "env:" mapped from the inputs as GitHub
      maps them, its script run by bash in an environment of the runner's
      variables (this process's) and the step's own, nothing else.
  ci_jobs.py gitlab TEMPLATE_YML JOBS_YML JOB JOB_DIR
      the script of job JOB of JOBS_YML (which extends the template's
      hidden jobs), in the variables GitLab would give it: the predefined
      ones (this process's), the YAML's, and the project's CI/CD variables
      of its environment's scope.  before_script (which installs bm) is
      written to JOB_DIR/before_script, not run.

The host's services come from variables of this process, which the
steps never see: CI_JOBS_REPO (the repository a checkout clones),
CI_JOBS_ARTIFACTS (where artifacts are kept between jobs),
CI_JOBS_SECRETS (GitHub: a file of {"github.token": ...}), CI_JOBS_VARIABLES
(GitLab: a file of the project's variables [{"key", "value",
"environment_scope"}]) and CI_JOBS_PIPELINE_VARIABLES (GitLab: {"KEY":
"VALUE"}, above all others).  The secrets are in files, not in this
process's environment, as a runner keeps them.

JOB_DIR gets: steps (what ran, one line a step: "run NAME", "skip NAME",
"uses ACTION KEY=VALUE..."), env.N (step N's environment, NAME=VALUE
NUL-separated), out and err.  The exit status is the job's: the first
failed step's.
"""
import json
import os
import re
import shutil
import subprocess
import sys

import yaml

SERVICE = ("CI_JOBS_REPO", "CI_JOBS_ARTIFACTS", "CI_JOBS_SECRETS", "CI_JOBS_VARIABLES", "CI_JOBS_PIPELINE_VARIABLES")


def fail(msg):
    sys.stderr.write("ci_jobs.py: %s\n" % msg)
    sys.exit(3)


def load_json(path, empty):
    return json.load(open(path)) if path else empty


def runner_env():
    return {k: v for k, v in os.environ.items() if k not in SERVICE}


class Job:
    def __init__(self, job_dir):
        self.dir = job_dir
        os.makedirs(job_dir, exist_ok=True)
        self.steps = open(os.path.join(job_dir, "steps"), "w")
        self.out = open(os.path.join(job_dir, "out"), "w")
        self.err = open(os.path.join(job_dir, "err"), "w")
        self.n = 0

    def log(self, line):
        self.steps.write(line + "\n")
        self.steps.flush()

    def run(self, script, env, cwd):
        """Runs script as bash runs a step: bash --noprofile --norc -eo pipefail."""
        self.n += 1
        with open(os.path.join(self.dir, "env.%d" % self.n), "w") as f:
            f.write("".join("%s=%s\0" % kv for kv in sorted(env.items())))
        self.out.flush()
        self.err.flush()
        return subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], env=env, cwd=cwd,
                               stdout=self.out, stderr=self.err)


def clone(repo, sha, dest, depth):
    """A fresh checkout of sha, fetched with the branches and the pull
    requests' refs (refs/pull/N/merge): what actions/checkout and GitLab's
    clone leave."""
    if os.path.exists(dest):
        shutil.rmtree(dest)
    subprocess.check_call(["git", "-c", "init.defaultBranch=main", "init", "--quiet", dest])
    args = ["git", "-C", dest, "fetch", "--quiet", "--no-tags"]
    if depth:
        args += ["--depth", str(depth)]
    subprocess.check_call(args + ["file://" + os.path.abspath(repo), "+refs/heads/*:refs/remotes/origin/*",
                                  "+refs/pull/*:refs/remotes/pull/*"])
    subprocess.check_call(["git", "-C", dest, "checkout", "--quiet", "--detach", sha])


# ---- GitHub ----

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


COMPARISON = re.compile(r"inputs\.([\w-]+)\s*(==|!=)\s*'([^']*)'")


def github_compare(m, ctx):
    equal = github_value("inputs." + m.group(1), ctx) == m.group(3)
    return equal if m.group(2) == "==" else not equal


def github_value(expr, ctx):
    m = COMPARISON.fullmatch(expr)
    if m:
        return "true" if github_compare(m, ctx) else "false"
    m = re.fullmatch(r"inputs\.([\w-]+)", expr)
    if m:
        if m.group(1) not in ctx["inputs"]:
            fail("action.yml reads an input it does not declare: " + expr)
        return ctx["inputs"][m.group(1)]
    m = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
    if m:
        return ctx["outputs"].get(m.group(1), {}).get(m.group(2), "")
    if expr == "runner.temp":
        return ctx["env"]["RUNNER_TEMP"]
    if expr == "github.token":
        return ctx["secrets"].get("github.token", "")
    fail("an expression this emulator does not know: " + expr)


def github_subst(text, ctx):
    if isinstance(text, bool):
        text = "true" if text else "false"
    return EXPR.sub(lambda m: github_value(m.group(1), ctx), str(text))


def github_if(cond, ctx):
    if cond is None:
        return True
    m = COMPARISON.fullmatch(cond.strip())
    if not m:
        fail("a condition this emulator does not know: " + cond)
    return github_compare(m, ctx)


def github_uses(job, step, ctx):
    action = step["uses"]
    w = {k: github_subst(v, ctx) for k, v in (step.get("with") or {}).items()}
    job.log("uses %s %s" % (action, " ".join("%s=%s" % kv for kv in sorted(w.items()))))
    ws = ctx["env"]["GITHUB_WORKSPACE"]
    store = os.environ.get("CI_JOBS_ARTIFACTS", "")
    if action == "actions/cache@v4":
        return 0  # the test prepares the install itself: the key is logged
    if action == "actions/checkout@v4":
        depth = int(w.get("fetch-depth", "1"))
        clone(os.environ["CI_JOBS_REPO"], ctx["env"]["GITHUB_SHA"], ws, depth)
        return 0
    if action == "actions/upload-artifact@v4":
        src = os.path.join(ws, w["path"])
        dest = os.path.join(store, w["name"])
        if os.path.exists(dest):
            job.err.write("upload-artifact: an artifact named '%s' exists already in this run\n" % w["name"])
            return 1
        if not os.path.isfile(src):
            job.err.write("upload-artifact: no file at '%s'\n" % w["path"])
            return 1
        os.makedirs(dest)
        shutil.copy(src, dest)
        return 0
    if action == "actions/download-artifact@v4":
        src = os.path.join(store, w["name"])
        if not os.path.isdir(src):
            job.err.write("download-artifact: no artifact named '%s'\n" % w["name"])
            return 1
        os.makedirs(w["path"], exist_ok=True)
        for f in os.listdir(src):
            shutil.copy(os.path.join(src, f), w["path"])
        return 0
    fail("an action this emulator does not know: " + action)


def github(action_yml, inputs_json, job_dir):
    action = yaml.safe_load(open(action_yml))
    if action["runs"]["using"] != "composite":
        fail("not a composite action")
    given = json.loads(inputs_json)
    env = runner_env()
    ctx = {"env": env, "outputs": {}, "secrets": load_json(os.environ.get("CI_JOBS_SECRETS"), {}), "inputs": {}}
    for name, spec in action["inputs"].items():
        ctx["inputs"][name] = str(spec.get("default", ""))
    for name in given:
        if name not in action["inputs"]:
            fail("the workflow gives an input the action does not declare: " + name)
    for name, spec in action["inputs"].items():
        ctx["inputs"][name] = github_subst(given[name], ctx) if name in given else github_subst(ctx["inputs"][name], ctx)
    job = Job(job_dir)
    for i, step in enumerate(action["runs"]["steps"]):
        name = step.get("name", "step %d" % i)
        if not github_if(step.get("if"), ctx):
            job.log("skip " + name)
            continue
        if "uses" in step:
            rc = github_uses(job, step, ctx)
        else:
            if step.get("shell") != "bash":
                fail("a run step without shell: bash")
            job.log("run " + name)
            output = os.path.join(job_dir, "output.%d" % i)
            open(output, "w").close()
            step_env = dict(env)
            step_env.update({"GITHUB_ACTION_PATH": os.path.dirname(os.path.abspath(action_yml)),
                             "GITHUB_OUTPUT": output})
            for k, v in (step.get("env") or {}).items():
                step_env[k] = github_subst(v, ctx)
            rc = job.run(step["run"], step_env, env["GITHUB_WORKSPACE"])
            if "id" in step:
                ctx["outputs"][step["id"]] = dict(l.split("=", 1) for l in open(output).read().splitlines() if "=" in l)
        if rc:
            return rc
    return 0


# ---- GitLab ----

class Reference(list):
    pass


class Loader(yaml.SafeLoader):
    pass


Loader.add_constructor("!reference", lambda loader, node: Reference(loader.construct_sequence(node)))


def merge(base, over):
    out = dict(base)
    for k, v in over.items():
        out[k] = merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def resolve(doc, name, seen=()):
    if name in seen:
        fail("extends loops at " + name)
    job = doc[name]
    parents = job.get("extends", [])
    out = {}
    for p in [parents] if isinstance(parents, str) else parents:
        out = merge(out, resolve(doc, p, seen + (name,)))
    return merge(out, {k: v for k, v in job.items() if k != "extends"})


def lines(doc, value):
    out = []
    for item in value or []:
        if isinstance(item, Reference):
            out += lines(doc, resolve(doc, item[0])[item[1]])
        elif isinstance(item, list):
            out += lines(doc, item)
        else:
            out.append(item)
    return out


def expand(value, variables):
    return re.sub(r"\$(?:\{(\w+)\}|(\w+))", lambda m: variables.get(m.group(1) or m.group(2), ""), str(value))


def scope_matches(scope, environment):
    return scope == "*" or (environment is not None and scope == environment)


def gitlab(template_yml, jobs_yml, name, job_dir):
    doc = yaml.load(open(template_yml), Loader=Loader)
    doc.update(yaml.load(open(jobs_yml), Loader=Loader))
    spec = resolve(doc, name)
    env = runner_env()
    job = Job(job_dir)
    environment = (spec.get("environment") or {}).get("name")
    variables = dict(env)
    yaml_vars = spec.get("variables") or {}
    project = os.path.join(job_dir, "project")
    variables["CI_PROJECT_DIR"] = project
    variables["CI_JOB_NAME"] = name
    # GitLab's order, lowest first: predefined, YAML, project variables of
    # the job's environment scope, pipeline variables.
    for k, v in yaml_vars.items():
        variables[k] = expand(v, variables)
    for v in load_json(os.environ.get("CI_JOBS_VARIABLES"), []):
        if scope_matches(v.get("environment_scope", "*"), environment):
            variables[v["key"]] = v["value"]
    variables.update(json.loads(os.environ.get("CI_JOBS_PIPELINE_VARIABLES", "{}")))
    if environment:
        variables["CI_ENVIRONMENT_NAME"] = environment
    depth = int(variables.get("GIT_DEPTH", "20"))
    clone(os.environ["CI_JOBS_REPO"], variables["CI_COMMIT_SHA"], project, depth)
    job.log("clone depth %d strategy %s" % (depth, variables.get("GIT_STRATEGY", "fetch")))
    store = os.environ.get("CI_JOBS_ARTIFACTS", "")
    for need in spec.get("needs") or []:
        need = {"job": need, "artifacts": True} if isinstance(need, str) else need
        src = os.path.join(store, need["job"])
        if need.get("artifacts", True) and os.path.isdir(src):
            for f in os.listdir(src):
                shutil.copy(os.path.join(src, f), project)
            job.log("artifacts from " + need["job"])
    with open(os.path.join(job_dir, "before_script"), "w") as f:
        f.write("\n".join(lines(doc, spec.get("before_script"))) + "\n")
    script = lines(doc, spec.get("script"))
    if not script:
        fail("job %s has no script" % name)
    job.log("run " + name)
    rc = job.run("\n".join(script), variables, project)
    paths = (spec.get("artifacts") or {}).get("paths") or []
    when = (spec.get("artifacts") or {}).get("when", "on_success")
    if paths and (rc == 0 or when == "always"):
        dest = os.path.join(store, name)
        os.makedirs(dest, exist_ok=True)
        for p in paths:
            if os.path.isfile(os.path.join(project, p)):
                shutil.copy(os.path.join(project, p), dest)
        job.log("artifacts " + " ".join(paths))
    return rc


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "github":
        sys.exit(github(*sys.argv[2:]))
    if len(sys.argv) == 6 and sys.argv[1] == "gitlab":
        sys.exit(gitlab(*sys.argv[2:]))
    fail("usage: ci_jobs.py github ACTION_YML INPUTS_JSON JOB_DIR | gitlab TEMPLATE_YML JOBS_YML JOB JOB_DIR")
