#!/bin/sh
# The layout's rules (docs/hacking.md), checked: make check-layout.
#
#   control/        the control-mode library: includes only its own files
#   plugin/shared/  what both programs use: its own files, and control's
#   plugin/lisad/   the helper: its own files, shared.h, control's
#   plugin/lisa/    the CLI: its own files, shared.h, control's
#   plugin/jsmn/    a submodule (zserge/jsmn), not ours: left out
#
# A program takes plugin/shared through shared.h alone, and never a file
# of the other program. Every C file sits in one of these folders, and no
# source file is longer than MAX lines.
#
# usage: sh tests/layout.sh [ROOT]  (exit 1 on a broken rule, each named)
MAX=800
cd "${1:-.}" || exit 2
bad=0
say() { echo "layout: $*"; bad=1; }

for f in plugin/*.[ch]; do
	[ -e "$f" ] && say "$f: a C file outside the program folders"
done
for f in control/*.[ch] plugin/*/*.[ch]; do
	[ -e "$f" ] || continue
	dir=${f%/*}
	# jsmn: a submodule, zserge/jsmn's own (the Makefile's fallback).
	[ "$dir" = plugin/jsmn ] && continue
	case $dir in
	control) ok= ;;
	plugin/shared) ok="control.h util.h" ;;
	plugin/lisad | plugin/lisa) ok="shared.h control.h util.h" ;;
	*) say "$f: a C file outside the program folders"; continue ;;
	esac
	for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
		[ -e "$dir/$h" ] && continue
		case " $ok " in *" $h "*) continue ;; esac
		say "$f includes \"$h\": not its folder's, nor allowed it"
	done
	# <...> must not reach around the rule to a header of ours.
	for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/\1/p' "$f"); do
		for d in control plugin/shared plugin/lisad plugin/lisa; do
			[ -e "$d/$h" ] && say "$f includes <$h>, a header of $d"
		done
	done
done

n=0
for f in $(git ls-files '*.[ch]' '*.sh' '*.py' lisa.tmux 2>/dev/null ||
    find . -path ./plugin/jsmn -prune -o -name '*.[ch]' -print -o \
    -name '*.sh' -print -o -name '*.py' -print); do
	[ -f "$f" ] || continue
	n=$((n + 1))
	l=$(wc -l <"$f")
	[ "$l" -gt $MAX ] && say "$f: $l lines (at most $MAX)"
done

[ $bad = 0 ] && echo "layout: includes keep to their folders; $n source files, none over $MAX lines"
exit $bad
