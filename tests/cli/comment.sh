#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-check --comment: one comment on the pull request (GitHub) or note on
# the merge request (GitLab), created by the first run and updated by
# every later one, found again by its hidden marker among the others (on
# any page) -- only in a comment written by the identity bm-check posts as,
# so that nobody can have theirs overwritten or make the check fail; a
# refused update gives a new comment; a duplicate of bm's (another job's
# made at the same time, an older bm's) is deleted, the oldest kept with
# the newest text; the modes always, on-change and never; names that
# would read as mentions, links, emoji or markup; exit codes as without
# it; every request checked as a fake host (tests/cli/fake_host.pl)
# recorded it.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
cd "$scratch" || exit 1

BM_CHECK="$top_builddir/uploader/bm-check"
unset GITHUB_ACTIONS GITHUB_REPOSITORY GITHUB_TOKEN GITHUB_REF GITHUB_API_URL GITHUB_STEP_SUMMARY \
	GITLAB_CI CI_API_V4_URL CI_PROJECT_ID CI_MERGE_REQUEST_IID BM_GITLAB_TOKEN GITLAB_TOKEN BM_SERVER BM_PROJECT \
	BM_COMMENT_AS
make_report base.json main a1a1a1 2026-11-01T10:00:00Z "" 100,100
make_report slower.json main a2a2a2 2026-11-02T10:00:00Z a1a1a1 70,100
make_report faster.json main a3a3a3 2026-11-03T10:00:00Z a1a1a1 100,130
make_report same.json main a4a4a4 2026-11-04T10:00:00Z a1a1a1 100,100

mkdir host
perl "$top_srcdir/tests/cli/fake_host.pl" "$scratch/host" &
host_pid=$!
trap 'kill $host_pid 2>/dev/null; server_cleanup' EXIT
for _ in $(seq 100); do [ -s host/port ] && break; sleep 0.05; done
host="http://127.0.0.1:$(cat host/port)"
# requests: the request lines the host got so far, one per line.
requests() {
	for f in $(ls host | grep '^request\.' | sort -t. -k2 -n); do head -n 1 "host/$f" | tr -d '\r'; done
}
# since N: the request lines after the first N, joined with '|'.
since() {
	requests | tail -n +$(($1 + 1)) | tr '\n' '|' | sed 's/|$//'
}
count() {
	requests | wc -l | tr -d ' '
}
# last_body: the JSON body of the last request that wrote a comment.
last_body() {
	f=$(for f in $(ls host | grep '^request\.' | sort -t. -k2 -n); do
		head -n 1 "host/$f" | grep -q '^\(POST\|PATCH\|PUT\) ' && echo "$f"
	done | tail -n 1)
	sed '1,/^.$/d' "host/$f" >body.json
	json_get body.json '$j->{body}'
}
# comment ID: the body of comment ID as the host has it now.
comment() {
	json_get host/comments.json "my (\$c) = grep { \$_->{id} == $1 } map { @\$_ } values %\$j; \$c ? \$c->{body} : ''"
}
# writers THREAD_SUFFIX: the writers of a thread's comments, in order.
writers() {
	json_get host/comments.json "my (\$k) = grep { m{$1\$} } keys %\$j; join ' ', map { \$_->{by} } @{\$j->{\$k}}"
}
# own THREAD_SUFFIX WRITER: the id of WRITER's last comment in a thread.
own() {
	json_get host/comments.json "my (\$k) = grep { m{$1\$} } keys %\$j; my @c = grep { \$_->{by} eq '$2' } @{\$j->{\$k}}; \$c[-1]{id}"
}
# ids THREAD_SUFFIX WRITER: the ids of WRITER's comments in a thread, in order.
ids() {
	json_get host/comments.json "my (\$k) = grep { m{$1\$} } keys %\$j; join ' ', map { \$_->{id} } grep { \$_->{by} eq '$2' } @{\$j->{\$k}}"
}
# as TOKEN PATH BODY: a comment posted by someone else, straight to the host.
as() {
	curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $1" -H 'Content-Type: application/json' \
		--data "$(perl -MJSON::PP -e 'print encode_json({body => $ARGV[0]})' "$3")" "$host$2"
}
bmc() {
	"$BM_CHECK" --base base.json "$@" >out 2>err
	echo $?
}

# -- not in a CI: a clear error, nothing sent --
check_eq "--comment outside GitHub Actions and GitLab CI: exit 2" 2 "$(bmc --head slower.json --comment)"
check "... saying what to set" grep -q "^bm-check: --comment works in GitHub Actions (GITHUB_REPOSITORY, GITHUB_TOKEN) or GitLab CI" err
export GITHUB_ACTIONS=true GITHUB_REPOSITORY=o/r GITHUB_TOKEN=t GITHUB_API_URL="$host"
check_eq "a push, not a pull request: exit 2" 2 "$(bmc --head slower.json --comment)"
check "... saying so" grep -q "not a pull request" err
check_eq "... and nothing was sent" "" "$(requests)"
check_eq "--comment=sometimes: exit 2" 2 "$(bmc --head slower.json --comment=sometimes)"
check "... naming the modes" grep -q "^bm-check: --comment takes always, on-change or never, not 'sometimes'$" err

# -- GitHub: who the token is, then created, then updated --
export GITHUB_REF=refs/pull/7/merge
check_eq "a regression with --comment: exit 1, as without" 1 "$(bmc --head slower.json --comment)"
check_eq "who the token is asked, the comments listed, one created, then listed again (another job's?)" \
	"GET /user HTTP/1.1|GET /repos/o/r/issues/7/comments?per_page=100&page=1 HTTP/1.1|POST /repos/o/r/issues/7/comments HTTP/1.1|GET /repos/o/r/issues/7/comments?per_page=100&page=1 HTTP/1.1" \
	"$(since 0)"
check "with the token" grep -q "^Authorization: Bearer t.$" host/request.3
last_body >first.md
check_eq "the comment's first line is the hidden marker" '<!-- bm-check: offline -->' "$(head -n 1 first.md)"
check "... then the Markdown summary" grep -q '^### bm: regression' first.md
check "bm-check says what it did" grep -q "^bm-check: created the comment on GitHub pull request #7$" err
check_eq "an improvement: exit 0" 0 "$(bmc --head faster.json --comment)"
check_eq "the second run updates the same comment" \
	"GET /user HTTP/1.1|GET /repos/o/r/issues/7/comments?per_page=100&page=1 HTTP/1.1|PATCH /repos/o/r/issues/comments/1001 HTTP/1.1" \
	"$(since 4)"
last_body >second.md
check "... with the new summary" grep -q '^### bm: improvement' second.md
check "bm-check says it updated it" grep -q "^bm-check: updated the comment on GitHub pull request #7$" err
check_eq "never a second comment: someone's, then bm's" "someone bm-bot" "$(writers issues/7/comments)"

# -- nobody can take the comment over --
n=$(count)
check_eq "mallory posts a comment holding the marker, on its first line too" "201 201" \
	"$(as mallory /repos/o/r/issues/7/comments 'Looks good to me! <!-- bm-check: offline -->') $(as mallory /repos/o/r/issues/7/comments '<!-- bm-check: offline -->
approved')"
check_eq "bm-check updates bm's own comment, not mallory's" \
	"GET /user HTTP/1.1|GET /repos/o/r/issues/7/comments?per_page=100&page=1 HTTP/1.1|PATCH /repos/o/r/issues/comments/1001 HTTP/1.1" \
	"$(bmc --head slower.json --comment >/dev/null; since $((n + 2)))"
check_eq "... (bm's is the one it created)" "1001" "$(own r/issues/7/comments bm-bot)"
check_eq "... mallory's comments read as she wrote them" "Looks good to me! <!-- bm-check: offline -->|<!-- bm-check: offline -->
approved" "$(comment 1002)|$(comment 1003)"
export GITHUB_REF=refs/pull/8/merge
as mallory /repos/o/r/issues/8/comments '<!-- bm-check: offline -->' >/dev/null
check_eq "a pull request where only mallory's comment has the marker: exit 1" 1 "$(bmc --head slower.json --comment)"
check_eq "... bm creates its own" "POST /repos/o/r/issues/8/comments HTTP/1.1" "$(requests | grep -v '^GET' | tail -n 1)"
check_eq "... beside hers" "someone mallory bm-bot" "$(writers issues/8/comments)"
n=$(count)
as mallory /repos/o/r/issues/8/comments 'a later one
<!-- bm-check: offline -->' >/dev/null
bmc --head faster.json --comment >/dev/null
check_eq "... and finds it again, whatever mallory posts after it" \
	"PATCH /repos/o/r/issues/comments/$(own r/issues/8/comments bm-bot) HTTP/1.1" \
	"$(requests | tail -n 1)"

# Found again on a later page, among 150 of others'.
export GITHUB_REPOSITORY=o/busy GITHUB_REF=refs/pull/7/merge
bmc --head slower.json --comment >/dev/null
bmc --head faster.json --comment >/dev/null
check_eq "among 150 comments: created, then found on page 2 and updated" \
	"POST /repos/o/busy/issues/7/comments HTTP/1.1|PATCH /repos/o/busy/issues/comments/$(own busy/issues/7/comments bm-bot) HTTP/1.1" \
	"$(requests | grep -v '^GET' | tail -n 2 | tr '\n' '|' | sed 's/|$//')"

# The host refuses to create: exit 2 and its message.
export GITHUB_REPOSITORY=o/forbidden
check_eq "GitHub refuses the comment: exit 2" 2 "$(bmc --head faster.json --comment)"
check "... with GitHub's message" grep -q "GitHub answered 403 for POST .*: Resource not accessible by integration" err

# The host refuses to update bm's comment (a locked conversation): a new one.
export GITHUB_REPOSITORY=o/locked
bmc --head slower.json --comment >/dev/null
check_eq "GitHub refuses the update: exit 0, the check's own code" 0 "$(bmc --head faster.json --comment)"
check_eq "... a new comment instead" "PATCH|POST" \
	"$(requests | tail -n 2 | cut -d' ' -f1 | tr '\n' '|' | sed 's/|$//')"
check "... and why" grep -q "^bm-check: GitHub refused to update bm's comment (GitHub answered 403 for PATCH .*the conversation is locked): created a new one on pull request #7$" err

# GitHub Actions' own token: GET /user refuses it; it writes as github-actions[bot].
export GITHUB_REPOSITORY=o/r GITHUB_REF=refs/pull/10/merge GITHUB_TOKEN=integration
check_eq "GITHUB_TOKEN (an installation token): exit 1" 1 "$(bmc --head slower.json --comment)"
bmc --head faster.json --comment >/dev/null
check_eq "... created as github-actions[bot], then found by that login and updated" \
	"someone github-actions[bot]" "$(writers issues/10/comments)"
check_eq "... the update" "PATCH" "$(requests | tail -n 1 | cut -d' ' -f1)"
check_eq "the same token outside GitHub Actions: exit 2" 2 "$(GITHUB_ACTIONS= bmc --head faster.json --comment)"
check "... saying to give --comment-as" grep -q "cannot tell who the token is (give the login bm-check posts as with --comment-as)" err
n=$(count)
check_eq "--comment-as: exit 0" 0 "$(GITHUB_ACTIONS= bmc --head faster.json --comment --comment-as 'github-actions[bot]')"
check_eq "... without asking the host who the token is" \
	"GET /repos/o/r/issues/10/comments?per_page=100&page=1 HTTP/1.1|PATCH /repos/o/r/issues/comments/$(own r/issues/10/comments 'github-actions[bot]') HTTP/1.1" \
	"$(since "$n")"
export GITHUB_TOKEN=t

# -- the modes --
export GITHUB_REF=refs/pull/11/merge
n=$(count)
check_eq "--comment=never: exit 1, as without" 1 "$(bmc --head slower.json --comment=never)"
check_eq "... and nothing sent" "" "$(since "$n")"
check_eq "--comment=on-change, nothing changed: exit 0" 0 "$(bmc --head same.json --comment=on-change)"
check_eq "... no comment created" "GET /user HTTP/1.1|GET /repos/o/r/issues/11/comments?per_page=100&page=1 HTTP/1.1" \
	"$(since "$n")"
check "... and why" grep -q "^bm-check: no benchmark changed past its threshold: no comment on GitHub pull request #11 (--comment=on-change)$" err
check_eq "--comment=on-change, a regression: exit 1" 1 "$(bmc --head slower.json --comment=on-change)"
check_eq "... created" "POST" "$(requests | grep -v '^GET' | tail -n 1 | cut -d' ' -f1)"
check_eq "--comment=on-change, back to nothing changed: exit 0" 0 "$(bmc --head same.json --comment=on-change)"
check_eq "... the comment is updated all the same (it never goes stale)" "PATCH" "$(requests | tail -n 1 | cut -d' ' -f1)"
last_body >same.md
check "... and says neutral" grep -q '^### bm: neutral' same.md

# -- one comment of bm's, whatever else made one --
# An older bm (or a job running at the same time) left two comments of
# bm's with the marker: the next run updates the oldest and deletes the
# other; mallory's, with the marker too, stays as she wrote it.
export GITHUB_REF=refs/pull/13/merge
as t /repos/o/r/issues/13/comments '<!-- bm-check: offline -->
old verdict' >/dev/null
as mallory /repos/o/r/issues/13/comments '<!-- bm-check: offline -->' >/dev/null
as t /repos/o/r/issues/13/comments '<!-- bm-check: offline -->
old verdict, again' >/dev/null
oldest=$(ids issues/13/comments bm-bot | cut -d' ' -f1)
newer=$(ids issues/13/comments bm-bot | cut -d' ' -f2)
n=$(count)
check_eq "two comments of bm's already there: exit 0" 0 "$(bmc --head faster.json --comment)"
check_eq "... the oldest updated, the other deleted" \
	"GET /user HTTP/1.1|GET /repos/o/r/issues/13/comments?per_page=100&page=1 HTTP/1.1|PATCH /repos/o/r/issues/comments/$oldest HTTP/1.1|DELETE /repos/o/r/issues/comments/$newer HTTP/1.1" \
	"$(since "$n")"
check_eq "... one of bm's left, the oldest, with the new verdict; mallory's as she wrote it" \
	"someone bm-bot mallory|$oldest|1|<!-- bm-check: offline -->" \
	"$(writers issues/13/comments)|$(ids issues/13/comments bm-bot)|$(comment "$oldest" | grep -c '^### bm: improvement')|$(comment "$(own issues/13/comments mallory)")"
check "... and said" grep -q "^bm-check: deleted 1 more comment of bm's (of jobs that ran at the same time, or an older bm)$" err
# Another job found none either and created its own just before this one
# did (the fake host plants it): looking again after creating, this run
# puts its text in that one, the older, and deletes its own.
export GITHUB_REF=refs/pull/14/merge
printf '<!-- bm-check: offline -->\nthe other job\n' >host/plant
n=$(count)
check_eq "another job creates bm's comment at the same time: exit 1" 1 "$(bmc --head slower.json --comment)"
other=$(ids issues/14/comments bm-bot | cut -d" " -f1)
check_eq "... this run creates its own, lists again, updates the other job's (the older) and deletes its own" \
	"GET /repos/o/r/issues/14/comments?per_page=100&page=1 HTTP/1.1|POST /repos/o/r/issues/14/comments HTTP/1.1|GET /repos/o/r/issues/14/comments?per_page=100&page=1 HTTP/1.1|PATCH /repos/o/r/issues/comments/$other HTTP/1.1|DELETE /repos/o/r/issues/comments/$((other + 1)) HTTP/1.1" \
	"$(since $((n + 1)))"
check_eq "... one comment of bm's left, with this run's verdict" "someone bm-bot|1" \
	"$(writers issues/14/comments)|$(comment "$other" | grep -c '^### bm: regression')"
check_eq "... and said" "bm-check: updated the comment on GitHub pull request #14|bm-check: deleted 1 more comment of bm's (of jobs that ran at the same time, or an older bm)" \
	"$(grep '^bm-check: \(updated\|deleted\)' err | tr '\n' '|' | sed 's/|$//')"

# -- names that read as themselves --
export GITHUB_REF=refs/pull/12/merge
ids='s::@octocat,s::@org/team,s::https://evil.example/login,s::~~struck~~,s::x:shipit:#1,s::a|b `c`,`s::tick,s::*em* _u_ [l](u) <b>h</b> &amp;,s::**bold**,s::esc'
make_report hostile-base.json main b1b1b1 2026-11-01T10:00:00Z "" 100,100,100,100,100,100,100,100,100,100 "ids=$ids"
make_report hostile.json main b2b2b2 2026-11-02T10:00:00Z b1b1b1 50,50,50,50,50,50,50,50,50,50 "ids=$ids"
# The last one: an escape sequence and a right-to-left override.
for f in hostile-base.json hostile.json; do
	perl -MJSON::PP -i -0pe 'my $j = decode_json($_); $j->{benchmarks}[9]{id} = "s::esc\e[2J\x{202e}gnp.exe";
		$_ = JSON::PP->new->utf8->canonical->encode($j)' "$f"
done
check_eq "hostile names: exit 1" 1 "$("$BM_CHECK" --base hostile-base.json --head hostile.json --comment --markdown - >md.out 2>err; echo $?)"
last_body >hostile.md
check "--markdown -: no raw ESC or bidirectional override reaches the terminal" \
	sh -c "! grep -q \"\$(printf '\\033')\" md.out && ! grep -q \"\$(printf '\\342\\200\\256')\" md.out"
check "... they are shown as escapes" grep -qF '`s::esc\x1b[2J\u202egnp.exe`' md.out
# Rendered by a CommonMark (GFM) renderer, every name is one code
# element holding the name as written, and nothing else is made of it.
pandoc -f gfm -t html hostile.md -o hostile.html 2>/dev/null
check "pandoc renders the comment" test -s hostile.html
for id in 's::@octocat' 's::@org/team' 's::https://evil.example/login' 's::~~struck~~' 's::x:shipit:#1' \
	's::a|b `c`' '`s::tick' 's::*em* _u_ [l](u) <b>h</b> &amp;' 's::**bold**'; do
	html=$(printf '%s' "$id" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g')
	check "'$id' is one code element, as written" grep -qF "<code>$html</code>" hostile.html
done
check "... and no link, strikethrough, emphasis or HTML came out of any" \
	sh -c "! grep -q '<a \\|<del>\\|<em>\\|<b>\\|<img' hostile.html"
check_eq "... nor bold: only bm's own labels are" "Baseline:|Commit impact:" \
	"$(grep -o '<strong>[^<]*</strong>' hostile.html | sed 's/<[^>]*>//g' | sort -u | paste -sd'|')"
check_eq "... and the table keeps its columns (a '|' in a name does not split a cell)" "5 5 5 5 5 5 5 5 5 5" \
	"$(perl -0ne 'print join " ", map { scalar(() = /<td/g) } m{<tr class="(?:odd|even)">(.*?)</tr>}gs' hostile.html)"

# -- GitLab: a merge request's note, created then updated --
unset GITHUB_ACTIONS GITHUB_REPOSITORY GITHUB_TOKEN GITHUB_REF GITHUB_API_URL
export GITLAB_CI=true CI_API_V4_URL="$host/api/v4" CI_PROJECT_ID=42 CI_MERGE_REQUEST_IID=5
check_eq "GitLab without a token: exit 2" 2 "$(bmc --head slower.json --comment)"
check "... naming BM_GITLAB_TOKEN" grep -q "BM_GITLAB_TOKEN" err
export BM_GITLAB_TOKEN=mallory
# as_gitlab TOKEN MR BODY: a note posted straight to the host.
as_gitlab() {
	curl -s -o /dev/null -w '%{http_code}' -H "PRIVATE-TOKEN: $1" -H 'Content-Type: application/json' \
		--data "$(perl -MJSON::PP -e 'print encode_json({body => $ARGV[0]})' "$3")" \
		"$host/api/v4/projects/42/merge_requests/$2/notes"
}
check_eq "mallory plants a note with the marker" 201 "$(as_gitlab mallory 5 '<!-- bm-check: offline -->')"
export BM_GITLAB_TOKEN=g
n=$(count)
check_eq "GitLab: exit 1 on the regression" 1 "$(bmc --head slower.json --comment)"
check_eq "GitLab: bm-check --comment again" 0 "$(bmc --head faster.json --comment)"
check_eq "who the token is, the notes listed, one created (not mallory's updated) and listed again, then updated" \
	"GET /api/v4/user HTTP/1.1|GET /api/v4/projects/42/merge_requests/5/notes?per_page=100&page=1&sort=asc HTTP/1.1|POST /api/v4/projects/42/merge_requests/5/notes HTTP/1.1|GET /api/v4/projects/42/merge_requests/5/notes?per_page=100&page=1&sort=asc HTTP/1.1|GET /api/v4/user HTTP/1.1|GET /api/v4/projects/42/merge_requests/5/notes?per_page=100&page=1&sort=asc HTTP/1.1|PUT /api/v4/projects/42/merge_requests/5/notes/$(own merge_requests/5/notes bm-bot) HTTP/1.1" \
	"$(since "$n")"
check "with GitLab's token header" grep -q "^PRIVATE-TOKEN: g.$" "host/request.$((n + 3))"
check "bm-check says it updated the note" grep -q "^bm-check: updated the comment on GitLab merge request #5$" err
check_eq "... the system note, someone's, mallory's, bm's" "someone someone mallory bm-bot" "$(writers merge_requests/5/notes)"

# GitLab: another job's note at the same time, then one more of bm's.
export CI_MERGE_REQUEST_IID=6
printf '<!-- bm-check: offline -->\nthe other job\n' >host/plant
n=$(count)
check_eq "GitLab: another job creates bm's note at the same time: exit 1" 1 "$(bmc --head slower.json --comment)"
other=$(ids merge_requests/6/notes bm-bot | cut -d" " -f1)
check_eq "... this run creates its own, lists again, updates the other job's (the older) and deletes its own" \
	"POST /api/v4/projects/42/merge_requests/6/notes HTTP/1.1|GET /api/v4/projects/42/merge_requests/6/notes?per_page=100&page=1&sort=asc HTTP/1.1|PUT /api/v4/projects/42/merge_requests/6/notes/$other HTTP/1.1|DELETE /api/v4/projects/42/merge_requests/6/notes/$((other + 1)) HTTP/1.1" \
	"$(since $((n + 2)))"
check_eq "... one note of bm's left, with this run's verdict" "1" "$(comment "$other" | grep -c '^### bm: regression')"
as_gitlab g 6 '<!-- bm-check: offline -->
left by an older bm' >/dev/null
newer=$(own merge_requests/6/notes bm-bot)
n=$(count)
check_eq "GitLab: two notes of bm's: exit 0" 0 "$(bmc --head faster.json --comment)"
check_eq "... the oldest updated, the other deleted" \
	"PUT /api/v4/projects/42/merge_requests/6/notes/$other HTTP/1.1|DELETE /api/v4/projects/42/merge_requests/6/notes/$newer HTTP/1.1" \
	"$(since $((n + 2)))"
check_eq "... the system note, someone's, bm's: with the new verdict" "someone someone bm-bot|1" \
	"$(writers merge_requests/6/notes)|$(comment "$other" | grep -c '^### bm: improvement')"

done_testing
