# The quoting function against a real server: set -g @x "..." / show -gv.

test_quote_roundtrip_real_tmux() {
	start_server main
	out=$("$ROOT/${LISA_BUILD_DIR:-build}/tests/quote-roundtrip" "$SOCK" 1000 2>&1) || fail "$out"
	note "$out"
}
