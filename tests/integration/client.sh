# An attached client, as a human has: an outer tmux (socket $OUTER) runs
# `tmux -L inner attach` in a pane, and the tests read what it renders
# (capture-pane of the outer pane) and type into it (O send-keys).

OUTER="${SOCK}o"
O() { tmux -L "$OUTER" -f /dev/null "$@"; }
outer_cleanup() { tmux -L "$OUTER" kill-server 2>/dev/null; cleanup; }
trap outer_cleanup EXIT

# Attach a client (an outer tmux pane, WxH) to the inner session's window.
attach() {
	O new-session -d -x "${2:-150}" -y "${3:-30}" \
	    "env -u TMUX tmux -L $SOCK attach -t '$1'"
	# (tmux 3.2a gives a detached session 80x23 whatever -x and -y say)
	tmux_at_least 3 3 || O resize-window -x "${2:-150}" -y "${3:-30}"
	until_ms 3000 sh -c "[ -n \"\$(tmux -L $SOCK list-clients -F '#{client_control_mode}' | grep 0)\" ]" ||
	    fail "client did not attach"
	CLIENT=$(T list-clients -F '#{client_control_mode} #{client_name}' | sed -n 's/^0 //p')
}
screen() { O capture-pane -p; }
# A prefix key's binding, from the whole table: `list-keys -T prefix KEY`
# prints nothing on tmux 3.7 even for a bound key.
prefix_key() { T list-keys -T prefix | grep -E -- "-T prefix +$1 "; }
client_pane() { T list-clients -F '#{client_name} #{pane_id}' | sed -n "s|^$CLIENT ||p"; }
client_at() { [ "$(client_pane)" = "$1" ]; }
screen_has() { screen | grep -F -q -- "$1"; }
# What tmux holds for the pane itself, drawn on a client or not.
pane_has() { T capture-pane -p -t "$1" | grep -F -q -- "$2"; }
expect_screen_re() {
	until_ms "${2:-10000}" sh -c "tmux -L $OUTER capture-pane -p | grep -E -q -- '$1'" ||
	    fail "screen never matched '$1'; it shows:
$(screen)"
}
# Wait for a menu showing TEXT to close (a key read after the next
# message would clear it).
menu_closed() {
	until_ms 5000 sh -c "! tmux -L '$OUTER' capture-pane -p | grep -q -- '$1'" ||
	    fail "menu stayed: $(screen)"
}
expect_screen() {
	until_ms "${2:-10000}" screen_has "$1" ||
	    fail "screen never showed '$1'; it shows:
$(screen)"
}
