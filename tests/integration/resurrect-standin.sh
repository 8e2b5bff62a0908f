#!/bin/bash
# A stand-in for tmux-resurrect's restore (the tests cannot fetch it),
# doing what its hook contract says (docs/hooks.md, scripts/restore.sh):
# panes made again at their session, window index and pane index, each
# in its directory, running the default shell (or, as @resurrect-processes
# does, a program typed into it); then the option
# @resurrect-hook-post-restore-all, run with eval by bash.
#
#   resurrect-standin.sh SOCKET SESSION:WINDOW:DIR[:PROGRAM] ...
sock=$1
shift
t() { tmux -S "$sock" "$@"; }
for spec in "$@"; do
	IFS=: read -r session window dir program <<<"$spec"
	if t has-session -t "=$session" 2>/dev/null; then
		t new-window -d -t "$session:$window" -c "$dir"
	else
		t new-session -d -s "$session" -c "$dir"
		t move-window -s "$session:" -t "$session:$window" 2>/dev/null
	fi
	[ -n "$program" ] && t send-keys -t "$session:$window.0" "$program" Enter
	# (a job in the background: once it runs, as a user's would be)
	case "$program" in *"&")
		pid=$(t display -p -t "$session:$window.0" '#{pane_pid}')
		for _ in $(seq 50); do
			pgrep -P "$pid" >/dev/null && break
			sleep 0.1
		done ;;
	esac
	echo "restored $session:$window $(t display -p -t "$session:$window.0" '#{pane_id}')"
done
hook=$(t show-options -gqv @resurrect-hook-post-restore-all)
if [ -n "$hook" ]; then
	eval "$hook"
fi
