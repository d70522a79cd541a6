# SPDX-License-Identifier: MIT
# Shared by the CI tests (ci_action.sh, ci_secrets.sh, ci_args.sh): the
# jobs of the GitHub Action and of the GitLab CI template as the hosts run
# them (tests/cli/ci_jobs.py reads action.yml and gitlab-ci.yml), and bm
# installed as bm-install leaves it.
#
# Source after lib.sh.

ACTION="$top_srcdir/action.yml"
GITLAB="$top_srcdir/uploader/ci/gitlab-ci.yml"
BM_CI="$top_srcdir/uploader/ci/bm-ci"
BM_INSTALL="$top_srcdir/uploader/ci/bm-install"
CI_JOBS="$top_srcdir/tests/cli/ci_jobs.py"
# What the hosts put in a job's environment, and the tokens: none of it
# comes from the test's own environment.
unset GITHUB_ACTIONS GITHUB_REPOSITORY GITHUB_TOKEN GITHUB_REF GITHUB_API_URL GITHUB_STEP_SUMMARY GITHUB_SHA \
	GITHUB_EVENT_NAME GITHUB_EVENT_PATH GITHUB_HEAD_REF GITHUB_BASE_REF GITLAB_CI CI_API_V4_URL CI_PROJECT_ID \
	CI_MERGE_REQUEST_IID BM_GITLAB_TOKEN GITLAB_TOKEN BM_SERVER BM_PROJECT BM_TOKEN BM_PROGRAMS BM_MANIFEST \
	BM_RUN_ARGS BM_REPORT BM_PREFIX BM_COMMENT BM_STATUS BM_THRESHOLD BM_BASELINE

# ci_prefix DIR [client]: bm installed in DIR as bm-install (--client)
# leaves it, this build's tools linked in, so that the action's install
# step finds it there and builds nothing (bm-install --check agrees).
# ci_bm_run, when set, is linked as bm-run instead.
ci_prefix() {
	mkdir -p "$1/bin" "$1/share/bm"
	version=$(sed -n 's/^AC_INIT(\[bm\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
	hash=$("$top_srcdir/uploader/ci/bm-cache-key" --hash "$top_srcdir")
	if [ "${2:-}" = client ]; then
		ln -sf "$top_builddir/uploader/bm-upload" "$top_builddir/uploader/bm-check" "$1/bin/"
		echo "bm $version $hash client" >"$1/share/bm/installed-from"
		sh "$BM_INSTALL" --client --check "$1" >/dev/null || echo "# ci_prefix: the install step would build" >&2
	else
		ln -sf "${ci_bm_run:-$top_builddir/instrument/bm-run/bm-run}" "$top_builddir/uploader/bm-upload" "$top_builddir/uploader/bm-check" "$1/bin/"
		vg=$(dpkg-query -W -f '${Version}' valgrind 2>/dev/null || :)
		[ -n "$vg" ] || vg=$(valgrind --version 2>/dev/null || echo none)
		echo "bm $version $hash valgrind $vg" >"$1/share/bm/installed-from"
		sh "$BM_INSTALL" --check "$1" >/dev/null || echo "# ci_prefix: the install step would build" >&2
	fi
}

# gh_job DIR INPUTS_JSON [VAR=VALUE...]: a job of a workflow that uses the
# action with these inputs, on a fresh GitHub-hosted runner: DIR/tmp is
# RUNNER_TEMP (bm installed in it, as a cache would leave it), DIR/ws the
# workspace unless GITHUB_WORKSPACE is given; the VARs are the runner's
# variables for the event (GITHUB_SHA, GITHUB_EVENT_NAME, ...).  The
# github.token is gh-token.  Prints the job's exit status; DIR/steps, out,
# err and env.N say what ran (ci_jobs.py).
gh_job() {
	dir=$1 inputs=$2
	shift 2
	rm -rf "$dir"
	mkdir -p "$dir/tmp" "$dir/ws"
	ci_prefix "$dir/tmp/bm"
	ci_prefix "$dir/tmp/bm-client" client
	echo '{"github.token": "gh-token"}' >"$dir/secrets.json"
	env -i PATH="$PATH" HOME="$scratch" LANG=C.UTF-8 CI=true GITHUB_ACTIONS=true RUNNER_OS=Linux RUNNER_ARCH=X64 \
		ImageOS=ubuntu24 ImageVersion=20261101.1 RUNNER_TEMP="$dir/tmp" GITHUB_WORKSPACE="$dir/ws" \
		GITHUB_REPOSITORY=o/r GITHUB_API_URL="${host:-http://127.0.0.1:9}" GITHUB_STEP_SUMMARY="$dir/summary.md" \
		BM_INSTALL_PACKAGES=no CI_JOBS_REPO="$scratch/repo" CI_JOBS_ARTIFACTS="$scratch/artifacts" \
		CI_JOBS_SECRETS="$dir/secrets.json" "$@" python3 "$CI_JOBS" github "$ACTION" "$inputs" "$dir"
	echo $?
}

# gl_job JOBS_YML JOB DIR [VAR=VALUE...]: job JOB of a pipeline whose
# .gitlab-ci.yml is JOBS_YML (it extends the template), in GitLab's
# variables: the VARs (CI_COMMIT_SHA, ...), the project variables of
# $scratch/gitlab-variables.json (with their environment scope), bm in
# DIR/bm (its before_script, which installs bm, is not run).  Prints the
# job's exit status.
gl_job() {
	jobs=$1 job=$2 dir=$3
	shift 3
	rm -rf "$dir"
	mkdir -p "$dir"
	ci_prefix "$dir/bm"
	[ -f "$scratch/gitlab-variables.json" ] || echo '[]' >"$scratch/gitlab-variables.json"
	env -i PATH="$PATH" HOME="$scratch" LANG=C.UTF-8 CI=true GITLAB_CI=true CI_API_V4_URL="${host:-http://127.0.0.1:9}/api/v4" \
		CI_PROJECT_ID=9 CI_DEFAULT_BRANCH=main CI_JOB_TOKEN=glcbt-job-token-of-this-pipeline-0123 \
		CI_RUNNER_SHORT_TOKEN=t1Ab2Cd3E BM_INSTALL_PACKAGES=no CI_JOBS_REPO="$scratch/repo" \
		CI_JOBS_ARTIFACTS="$scratch/gl-artifacts" CI_JOBS_VARIABLES="$scratch/gitlab-variables.json" \
		CI_JOBS_PIPELINE_VARIABLES="{\"BM_HOME\": \"$top_srcdir\", \"BM_PREFIX\": \"$dir/bm\"}" "$@" \
		python3 "$CI_JOBS" gitlab "$GITLAB" "$jobs" "$job" "$dir"
	echo $?
}

# yaml FILE EXPRESSION: a Python expression over the YAML document d.
yaml() {
	python3 -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"
}
