#!/bin/sh
# SPDX-License-Identifier: MIT
# The Action's cache of bm (issue 20): its key (uploader/ci/bm-cache-key)
# changes with bm's source, the runner image and the Valgrind apt would
# install, and with nothing else; bm-install's stamp holds the same
# source hash, so that it builds when the source changed and not when the
# cache holds this very build.  On a copy of bm's source (a tarball
# download of the action is no git checkout), with real builds of the
# client tools (bm-install --client: bm-upload and bm-check, no Valgrind).
. "$top_srcdir/tests/cli/lib.sh"

src="$scratch/bm"
mkdir "$src"
(cd "$top_srcdir" && tar cf - --exclude-tag-all=config.status --exclude=.git --exclude=node_modules \
	--exclude=autom4te.cache .) | (cd "$src" && tar xf -) || exit 1
chmod -R u+w "$src" # make distcheck's source is read-only
KEY="$src/uploader/ci/bm-cache-key"
# key [VAR=VALUE...]: the cache key on a GitHub-hosted runner.
key() {
	env RUNNER_OS=Linux RUNNER_ARCH=X64 ImageOS=ubuntu24 ImageVersion=20261101.1 BM_VALGRIND_VERSION=1:3.22.0-0ubuntu3 \
		"$@" sh "$KEY" "$src"
}
k0=$(key)
check "the key names the runner, its image, Valgrind and a hash of the source" \
	sh -c "echo '$k0' | grep -q '^bm-Linux-X64-ubuntu24-20261101.1-valgrind-1:3.22.0-0ubuntu3-[0-9a-f]\{32\}\$'"
check_eq "... the hash is bm-cache-key --hash's (bm-install's stamp)" "${k0##*-}" "$(sh "$KEY" --hash "$src")"
check_eq "the same source, runner and Valgrind: the same key" "$k0" "$(key)"
check "another image version: another key" test "$(key ImageVersion=20261108.2)" != "$k0"
check "another Valgrind: another key" test "$(key BM_VALGRIND_VERSION=1:3.24.0-1)" != "$k0"
if candidate=$(apt-cache policy valgrind 2>/dev/null | sed -n 's/^ *Candidate: *//p') && [ -n "$candidate" ] &&
	[ "$candidate" != "(none)" ]; then
	check_eq "... by default the one apt would install (apt-cache policy valgrind)" "$candidate" "$(sh "$KEY" --valgrind)"
else
	ok "# SKIP no apt-cache here"
fi
echo '/* changed */' >>"$src/uploader/bm-check.c"
check "a changed source file: another key" test "$(key)" != "$k0"
sed -i '$d' "$src/uploader/bm-check.c"
check_eq "... changed back: the key again" "$k0" "$(key)"
echo more >>"$src/docs/ci.md"
mkdir -p "$src/uploader/.deps" && echo x >"$src/uploader/.deps/bm-check.Po" && echo x >"$src/uploader/bm-check.o"
check_eq "documentation and what a build leaves beside the sources: the same key" "$k0" "$(key)"
check_eq "not bm's source: exit 2" 2 "$(sh "$KEY" "$scratch" 2>"$scratch/err" >/dev/null; echo $?)"
check "... said" grep -q "^bm-cache-key: '$scratch' is not bm's source" "$scratch/err"

# bm-install: the packages are there (quickstart installs them).
export BM_INSTALL_PACKAGES=no
prefix="$scratch/prefix"
sh "$src/uploader/ci/bm-install" --client "$prefix" >"$scratch/out" 2>&1
check_eq "bm-install --client builds bm-upload and bm-check (and not bm-run)" "0|bm-check bm-upload" \
	"$?|$(ls "$prefix/bin" | tr '\n' ' ' | sed 's/ $//')"
check_eq "... which run" "bm-check 0.1.0|bm-upload 0.1.0" \
	"$("$prefix/bin/bm-check" --version)|$("$prefix/bin/bm-upload" --version)"
check_eq "... its stamp: the version, the source's hash (the cache key's), client" "bm 0.1.0 ${k0##*-} client" \
	"$(cat "$prefix/share/bm/installed-from")"
before=$(ls -li --time-style=full-iso "$prefix/bin")
out=$(sh "$src/uploader/ci/bm-install" --client "$prefix" 2>&1)
check_eq "again, the stamp matching: nothing built" "0|bm-install: bm 0.1.0 (${k0##*-}) already in $prefix" "$?|$out"
check_eq "... the tools untouched" "$before" "$(ls -li --time-style=full-iso "$prefix/bin")"
check_eq "... bm-install --check says so" 0 "$(sh "$src/uploader/ci/bm-install" --client --check "$prefix" >/dev/null; echo $?)"
echo '/* changed */' >>"$src/uploader/bm-check.c"
check_eq "a changed source: bm-install --check says it would build" 1 \
	"$(sh "$src/uploader/ci/bm-install" --client --check "$prefix" >/dev/null; echo $?)"
sh "$src/uploader/ci/bm-install" --client "$prefix" >"$scratch/out" 2>&1
check_eq "... and bm-install builds again" "0|bm-install: bm 0.1.0 ($(sh "$KEY" --hash "$src")) installed in $prefix" \
	"$?|$(tail -n 1 "$scratch/out")"
check "... the new stamp" grep -q "^bm 0.1.0 $(sh "$KEY" --hash "$src") client\$" "$prefix/share/bm/installed-from"

# A full install's stamp names the Valgrind it was built against: another
# Valgrind, another build (bm's engine runs only under its own).
full="$scratch/full"
mkdir -p "$full/bin" "$full/share/bm"
: >"$full/bin/bm-run" >"$full/bin/bm-upload" >"$full/bin/bm-check"
chmod +x "$full/bin/"*
vg=$(dpkg-query -W -f '${Version}' valgrind 2>/dev/null || :)
[ -n "$vg" ] || vg=$(valgrind --version 2>/dev/null || echo none)
echo "bm 0.1.0 $(sh "$KEY" --hash "$src") valgrind $vg" >"$full/share/bm/installed-from"
check_eq "a full install of this source and this Valgrind: nothing to build" 0 \
	"$(sh "$src/uploader/ci/bm-install" --check "$full" >/dev/null; echo $?)"
echo "bm 0.1.0 $(sh "$KEY" --hash "$src") valgrind 1:0.0.0-0" >"$full/share/bm/installed-from"
check_eq "... built against another Valgrind: bm-install would build" 1 \
	"$(sh "$src/uploader/ci/bm-install" --check "$full" >/dev/null; echo $?)"
check_eq "bm-install without a prefix: exit 2" 2 "$(sh "$src/uploader/ci/bm-install" --client 2>/dev/null; echo $?)"

done_testing
