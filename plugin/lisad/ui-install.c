/*
 * lisa in the user's tmux: the #{lisa_status}, #{lisa_asks}, #{lisa_waiting},
 * #{lisa_hosts} placeholders in status-left/right, a badge after each window's name, the
 * agent line in pane borders, and the key bindings. Applied when the helper
 * starts or reloads, taken back when it stops.
 *
 * What lisa changed is recorded in tmux itself (@lisa_saved_<option>, the
 * user's value, and @lisa_applied_<option>, ours) so that a later helper,
 * even after a crash, restores only what is still ours: an option the user
 * has set since is left alone.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "fleet.h"
#include "tell.h"

/* The fleet's hosts, after @lisa_remote's second '|' (publish.c). */
#define UI_HOSTS "#{q/h;s/^[^|]*[|][^|]*[|]//:@lisa_remote}"

enum ui_kind { UI_PLACEHOLDERS, UI_BADGE, UI_BORDER, UI_RESURRECT };

static const struct {
	const char	*name;
	const char	*scope;		/* for show/set-option */
	enum ui_kind	 kind;
} ui_options[] = {
	{ "status-left", "-g", UI_PLACEHOLDERS },
	{ "status-right", "-g", UI_PLACEHOLDERS },
	{ "window-status-format", "-gw", UI_BADGE },
	{ "window-status-current-format", "-gw", UI_BADGE },
	{ "pane-border-format", "-gw", UI_BORDER },
	/* tmux-resurrect's hook: @lisa-resume-resurrect on (docs/lifecycle.md) */
	{ "@resurrect-hook-post-restore-all", "-g", UI_RESURRECT },
};
#define UI_NOPTIONS (sizeof ui_options / sizeof ui_options[0])

static const struct {
	const char	*option;
	const char	*key;		/* default */
	const char	*what;		/* `lisa key WHAT` */
	const char	*note;
} ui_keys[] = {
	{ "@lisa-menu-key", "a", "menu", "lisa: agents by state, actions" },
	{ "@lisa-next-key", "A", "next",
	  "lisa: next agent that needs you" },
	{ "@lisa-details-key", "none", "details",
	  "lisa: why this pane is in its state" },
};
#define UI_NKEYS (sizeof ui_keys / sizeof ui_keys[0])

/*
 * What ui_apply and ui_restore read (each option, its saved and applied
 * values, the prefix key table), read at once by one tmux process; while
 * taken, ui_get and ui_list_keys answer from it.
 */
#define UI_NSNAP (2 + 3 * UI_NOPTIONS)
static struct {
	const char	*scope;
	char		 name[80];
	char		*raw;
} ui_snap[UI_NSNAP];
static size_t		 ui_nsnap;
static char		*ui_snap_keys;

static struct ui_config	 ui_cfg;
static char		*ui_key[UI_NKEYS];
static int		 ui_border_is_auto;
static int		 ui_badge_flags;	/* a badge took a flags' space */
static struct buf	 ui_warnings;

int
ui_border_auto(void)
{
	return (ui_border_is_auto);
}

const struct ui_config *
ui_config(void)
{
	return (&ui_cfg);
}

const char *
ui_warning(void)
{
	return (ui_warnings.len != 0 ? ui_warnings.data : NULL);
}

static void
ui_warn(const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	log_warnx("%s", msg);
	if (ui_warnings.len != 0)
		buf_adds(&ui_warnings, "; ");
	buf_adds(&ui_warnings, msg);
	free(msg);
}

/* Before the options are read again: every default. */
void
ui_reset(void)
{
	size_t	i;

	ui_config_free(&ui_cfg);
	ui_config_defaults(&ui_cfg);
	for (i = 0; i < UI_NKEYS; i++) {
		free(ui_key[i]);
		ui_key[i] = xstrdup(ui_keys[i].key);
	}
	buf_free(&ui_warnings);
	buf_init(&ui_warnings);
}

/* One @lisa-* option; those that are not ours are ignored. */
void
ui_option(const char *name, const char *value)
{
	size_t	i;

	for (i = 0; i < UI_NKEYS; i++) {
		if (strcmp(name, ui_keys[i].option) == 0) {
			free(ui_key[i]);
			ui_key[i] = xstrdup(value);
			return;
		}
	}
	/* (a bad value keeps the default, and is said: config.c) */
	ui_config_set(&ui_cfg, name, value);
}

static void
ui_snap_add(const char *scope, const char *prefix, const char *name)
{
	ui_snap[ui_nsnap].scope = scope;
	snprintf(ui_snap[ui_nsnap].name, sizeof ui_snap[ui_nsnap].name,
	    "%s%s", prefix, name);
	ui_snap[ui_nsnap].raw = NULL;
	ui_nsnap++;
}

static void
ui_snap_take(void)
{
	const char	*cmds[UI_NSNAP + 1];
	char		*cmd[UI_NSNAP], *outs[UI_NSNAP + 1];
	size_t		 i, n;

	ui_nsnap = 0;
	ui_snap_add("-gw", "", "pane-border-status");
	ui_snap_add("-g", "", "status-style");
	for (i = 0; i < UI_NOPTIONS; i++) {
		ui_snap_add(ui_options[i].scope, "", ui_options[i].name);
		ui_snap_add("-g", "@lisa_applied_", ui_options[i].name);
		ui_snap_add("-g", "@lisa_saved_", ui_options[i].name);
	}
	n = ui_nsnap;
	for (i = 0; i < n; i++) {
		xasprintf(&cmd[i], "show-options %sqv %s", ui_snap[i].scope,
		    ui_snap[i].name);
		cmds[i] = cmd[i];
	}
	cmds[n] = "list-keys -T prefix";
	if (tmux_read_each(cmds, n + 1, outs) == 0) {
		for (i = 0; i < n; i++)
			ui_snap[i].raw = outs[i];
		ui_snap_keys = outs[n];
	} else {
		/* (each read alone would fail the same way, a process each) */
		log_debug("ui: tmux did not answer: options left alone");
		ui_nsnap = 0;
	}
	for (i = 0; i < n; i++)
		free(cmd[i]);
}

static void
ui_snap_clear(void)
{
	size_t	i;

	for (i = 0; i < ui_nsnap; i++)
		free(ui_snap[i].raw);
	ui_nsnap = 0;
	free(ui_snap_keys);
	ui_snap_keys = NULL;
}

/* show-options -qv of an option the snapshot holds (all that we read). */
static int
ui_show(char **out, const char *scope, const char *name)
{
	size_t	i;

	for (i = 0; i < ui_nsnap; i++) {
		if (strcmp(ui_snap[i].scope, scope) == 0 &&
		    strcmp(ui_snap[i].name, name) == 0) {
			*out = xstrdup(ui_snap[i].raw);
			return (0);
		}
	}
	return (-1);	/* (tmux did not answer) */
}

static int
ui_list_keys(char **out)
{
	if (ui_snap_keys == NULL)
		return (-1);
	*out = xstrdup(ui_snap_keys);
	return (0);
}

/*
 * One option's value as tmux has it, without the trailing newline; NULL
 * if it cannot be read exactly. tmux 3.4 and 3.5 print it escaped, and a
 * backslash of the user's cannot be told from one of tmux's: such an
 * option is left alone rather than written back changed.
 */
static char *
ui_get(const char *scope, const char *name)
{
	char	*out = NULL, *value;

	if (ui_show(&out, scope, name) != 0) {
		free(out);
		return (NULL);
	}
	out[strcspn(out, "\n")] = '\0';
	if (!lisad.caps.reply_escaped)
		return (out);
	if (ctl_unvis(out, lisad.caps.dollar_escaped, &value) != 0) {
		if (*name != '@')
			ui_warn("%s has a backslash tmux %s does not print "
			    "exactly: left alone", name, lisad.tv.text);
		free(value);
		free(out);
		return (NULL);
	}
	free(out);
	return (value);
}

static void
ui_set(struct buf *script, const char *scope, const char *name,
    const char *value)
{
	if (value == NULL) {
		buf_printf(script, "set-option %su %s\n", scope, name);
		return;
	}
	buf_printf(script, "set-option %s %s ", scope, name);
	ctl_quote_str(script, value);
	buf_addc(script, '\n');
}

static char *
ui_transform(size_t i, const char *source)
{
	struct buf	 b;
	char		*a, *c;

	buf_init(&b);
	switch (ui_options[i].kind) {
	case UI_PLACEHOLDERS:
		/*
		 * The formats themselves are lisa's options (ui_formats): they
		 * hold backslashes (\1), which tmux 3.4 and 3.5 do not print
		 * back exactly, and the user's option must read back as what
		 * lisa applied, to be given back at stop.
		 */
		a = uiformat_replace(source, "#{lisa_status}",
		    "#{E:@lisa_status_format}");
		c = uiformat_replace(a, "#{lisa_waiting}",
		    "#{E:@lisa_waiting_format}");
		free(a);
		a = uiformat_replace(c, "#{lisa_asks}",
		    "#{E:@lisa_asks_format}");
		free(c);
		c = a;
		a = uiformat_replace(c, "#{lisa_hosts}",
		    "#{E:@lisa_hosts_format}");
		free(c);
		buf_free(&b);
		return (a);
	case UI_BADGE:
		if (!ui_cfg.window_badge)
			break;
		if (uiformat_badge(&b, source))
			ui_badge_flags = 1;
		return (buf_detach(&b));
	case UI_BORDER:
		if (!ui_cfg.pane_border)
			break;
		uiformat_border(&b, &ui_cfg, source);
		return (buf_detach(&b));
	case UI_RESURRECT:
		/* After the user's own hook (resurrect evals it in bash). */
		if (!ui_cfg.resume_resurrect)
			break;
		buf_adds(&b, source);
		if (*source != '\0')
			buf_adds(&b, " ; ");
		ctl_shell_quote(&b, lisad.lisa_bin);
		buf_adds(&b, " -S ");
		ctl_shell_quote(&b, lisad.sid.socket);
		buf_adds(&b, " resume --restored");
		return (buf_detach(&b));
	}
	buf_free(&b);
	return (xstrdup(source));
}

/* The user's value of an option: the saved one while ours is in place. */
static char *
ui_source(size_t i, char **current)
{
	char	 saved[128], applied[128], *a, *s;

	*current = ui_get(ui_options[i].scope, ui_options[i].name);
	snprintf(saved, sizeof saved, "@lisa_saved_%s", ui_options[i].name);
	snprintf(applied, sizeof applied, "@lisa_applied_%s",
	    ui_options[i].name);
	a = ui_get("-g", applied);
	s = ui_get("-g", saved);
	if (*current != NULL && a != NULL && *a != '\0' && s != NULL &&
	    strcmp(*current, a) == 0) {
		free(a);
		return (s);
	}
	free(a);
	free(s);
	return (*current != NULL ? xstrdup(*current) : NULL);
}

static void
ui_apply_option(struct buf *script, size_t i)
{
	char	 name[128], *current, *source, *want;

	if ((source = ui_source(i, &current)) == NULL)
		return;
	want = ui_transform(i, source);
	if (strcmp(want, current) != 0)
		ui_set(script, ui_options[i].scope, ui_options[i].name, want);
	snprintf(name, sizeof name, "@lisa_saved_%s", ui_options[i].name);
	ui_set(script, "-g", name, strcmp(want, source) != 0 ? source : NULL);
	snprintf(name, sizeof name, "@lisa_applied_%s", ui_options[i].name);
	ui_set(script, "-g", name, strcmp(want, source) != 0 ? want : NULL);
	free(want);
	free(source);
	free(current);
}

static void
ui_restore_option(struct buf *script, size_t i)
{
	char	 name[128], *current, *source;

	if ((source = ui_source(i, &current)) == NULL)
		return;
	if (strcmp(source, current) != 0)
		ui_set(script, ui_options[i].scope, ui_options[i].name, source);
	snprintf(name, sizeof name, "@lisa_saved_%s", ui_options[i].name);
	ui_set(script, "-g", name, NULL);
	snprintf(name, sizeof name, "@lisa_applied_%s", ui_options[i].name);
	ui_set(script, "-g", name, NULL);
	free(source);
	free(current);
}

/* How a key's binding says it is ours: "lisa ... key WHAT ". */
static int
ui_key_ours(const char *binding, size_t i)
{
	char	marker[32];

	snprintf(marker, sizeof marker, " key %s ", ui_keys[i].what);
	return (strstr(binding, marker) != NULL);
}

/* A binding of any of lisa's keys. */
static int
ui_line_ours(const char *binding)
{
	size_t	i;

	for (i = 0; i < UI_NKEYS; i++) {
		if (ui_key_ours(binding, i))
			return (1);
	}
	return (0);
}

/* The key a "bind-key [-r] [-N note] -T prefix KEY command" line binds. */
static char *
ui_key_of(char *line)
{
	char	*p, *key;

	if ((p = strstr(line, "-T prefix ")) == NULL)
		return (NULL);
	key = p + 10;
	while (*key == ' ')
		key++;
	key[strcspn(key, " ")] = '\0';
	return (key);
}

/*
 * The prefix binding of a key: 0 free (or lisa's, unbound before ours
 * are bound), 2 someone else's. From the
 * whole table: `list-keys -T prefix KEY` prints nothing for a bound key
 * on tmux 3.7 (its list-keys rework), which looked like a free key.
 */
static int
ui_key_state(const char *key)
{
	char	*out = NULL, *line, *rest, *k, *copy;
	int	 state = 0;

	if (ui_list_keys(&out) != 0 || out == NULL) {
		free(out);
		return (0);
	}
	rest = out;
	while (state == 0 && (line = strsep(&rest, "\n")) != NULL) {
		copy = xstrdup(line);
		/* (the snapshot is from before ui_remove_keys: ours go) */
		if ((k = ui_key_of(copy)) != NULL && strcmp(k, key) == 0)
			state = ui_line_ours(line) ? 0 : 2;
		free(copy);
	}
	free(out);
	return (state);
}

/*
 * A key: lisa writes the command it makes (a menu, a switch) to a file of
 * the client's in the runtime directory, which the client then sources
 * (plugin/lisa/cmd-key-to.c): no tmux client per press. A runtime path
 * that a glob or a quote would change (source-file globs its path) keeps
 * the slower way: run-shell -b, lisa running tmux itself.
 */
static void
ui_bind(struct buf *script, size_t i)
{
	struct buf	 sh, fmt;
	const char	*key = ui_key[i];
	char		*to;
	int		 file;

	to = runtime_path(lisad.rundir, lisad.sid.key, ".key-");
	file = to[strcspn(to, "*?[]\\\"'\n\t")] == '\0';
	buf_init(&sh);
	ctl_shell_quote(&sh, lisad.lisa_bin);
	buf_adds(&sh, " -S ");
	ctl_shell_quote(&sh, lisad.sid.socket);
	buf_printf(&sh, " key %s ", ui_keys[i].what);
	if (file) {
		buf_adds(&sh, "--to ");
		ctl_shell_quote(&sh, to);
	}
	buf_init(&fmt);
	ctl_format_escape(&fmt, sh.data);
	/* Ours, not escaped: run-shell fills them in. */
	if (file)
		buf_adds(&fmt, "#{client_pid} --at '#{pane_id}"
		    "#{?@lisa_jump_target,+,} "
		    "#{client_height} #{version} #{pid}-#{start_time}' ");
	buf_adds(&fmt, "'#{client_name}'");
	buf_adds(script, "bind-key -N ");
	ctl_quote_str(script, ui_keys[i].note);
	buf_adds(script, " -T prefix ");
	ctl_quote_str(script, key);
	buf_adds(script, file ? " run-shell " : " run-shell -b ");
	ctl_quote_str(script, fmt.data);
	if (file) {
		buf_reset(&fmt);
		ctl_format_escape(&fmt, to);
		buf_adds(&fmt, "#{client_pid}");
		buf_adds(script, " \\; source-file -qF ");
		ctl_quote_str(script, fmt.data);
	}
	buf_addc(script, '\n');
	buf_free(&sh);
	buf_free(&fmt);
	free(to);
}

static void
ui_apply_keys(struct buf *script)
{
	size_t	i;
	int	state;

	for (i = 0; i < UI_NKEYS; i++) {
		if (strcmp(ui_key[i], "none") == 0 || *ui_key[i] == '\0')
			continue;
		state = ui_key_state(ui_key[i]);
		if (state == 2) {
			ui_warn("prefix %s is bound already, left alone "
			    "(set %s to another key, or none)", ui_key[i],
			    ui_keys[i].option);
			buf_adds(script, "display-message ");
			ctl_quote_str(script, "lisa: prefix + key taken, see "
			    "lisa doctor");
			buf_addc(script, '\n');
			continue;
		}
		ui_bind(script, i);
	}
}

/* Every prefix key still bound to lisa goes, whatever it is now. */
static void
ui_remove_keys(struct buf *script)
{
	char	*out = NULL, *line, *rest, *key;

	if (ui_list_keys(&out) != 0) {
		free(out);
		return;
	}
	rest = out;
	while ((line = strsep(&rest, "\n")) != NULL) {
		if (!ui_line_ours(line) || (key = ui_key_of(line)) == NULL)
			continue;
		buf_printf(script, "unbind-key -T prefix %s\n", key);
	}
	free(out);
}

/*
 * The formats themselves, for themes and hand-made status lines:
 * #{E:@lisa_status_format} is what #{lisa_status} becomes, and the parts
 * the others are made of (ui-compose.c): #{E:@lisa_n_<group>} a count,
 * #{E:@lisa_places} the places that wait, #{E:@lisa_window_rank} a
 * window's worst rank letter. Set once; a transition writes only a pane's
 * @lisa (publish.c).
 */
static void
ui_formats(struct buf *script, int set)
{
	struct buf	 b;
	char		 name[64];
	int		 g, r;

	buf_init(&b);
	for (g = -1; g < UI_NGROUPS; g++) {
		snprintf(name, sizeof name, "@lisa_n_%s", g < 0 ? "agents" :
		    ui_group_name(g));
		buf_reset(&b);
		uiformat_count(&b, g);
		ui_set(script, "-g", name, set ? b.data : NULL);
		if (g < 0)
			continue;
		snprintf(name, sizeof name, "@lisa_item_%s", ui_group_name(g));
		buf_reset(&b);
		uiformat_item(&b, &ui_cfg, g, 1);
		ui_set(script, "-g", name, set ? b.data : NULL);
	}
	for (r = 0; r < 8; r++) {
		snprintf(name, sizeof name, "@lisa_badge_%c",
		    uiformat_rank_letter(r));
		buf_reset(&b);
		uiformat_badge_icon(&b, &ui_cfg, r);
		ui_set(script, "-g", name, set ? b.data : NULL);
	}
	ui_set(script, "-g", "@lisa_badge_", set && ui_badge_flags ?
	    "#{?window_flags,, }" : NULL);
	buf_reset(&b);
	uiformat_item(&b, &ui_cfg, UI_ASKS, 0);
	ui_set(script, "-g", "@lisa_chip_asks", set ? b.data : NULL);
	ui_set(script, "-g", "@lisa_item_end", set ? "#[default]" : NULL);
	/* A helper that died: the agent's name, and that lisa is not there. */
	ui_set(script, "-g", "@lisa_border_down", set ? "#[push-default] "
	    "#{s/^[^|]*[|]([^|]*[|]).*/\\1/;s/[|]$//:@lisa} \u00b7 "
	    "lisa is not running #[pop-default]" : NULL);
	buf_reset(&b);
	uiformat_places(&b, &ui_cfg);
	ui_set(script, "-g", "@lisa_places", set ? b.data : NULL);
	buf_reset(&b);
	uiformat_window_rank(&b);
	ui_set(script, "-g", "@lisa_window_rank", set ? b.data : NULL);
	buf_reset(&b);
	uiformat_status(&b, &ui_cfg);
	ui_set(script, "-g", "@lisa_status_format", set ? b.data : NULL);
	buf_reset(&b);
	uiformat_waiting(&b, &ui_cfg);
	ui_set(script, "-g", "@lisa_waiting_format", set ? b.data : NULL);
	buf_reset(&b);
	uiformat_asks(&b);
	ui_set(script, "-g", "@lisa_asks_format", set ? b.data : NULL);
	ui_set(script, "-g", "@lisa_hosts_format", set ? UI_HOSTS : NULL);
	buf_free(&b);
}

void
ui_apply(void)
{
	struct buf	 script;
	char		*status;
	size_t		 i;

	ui_snap_take();
	status = ui_get("-gw", "pane-border-status");
	ui_border_is_auto = ui_cfg.pane_border && status != NULL &&
	    strcmp(status, "off") == 0;
	free(status);
	/* Colours that read on the user's status bar, light or dark. */
	status = ui_get("-g", "status-style");
	if (status != NULL && strstr(status, "#{") != NULL) {
		/* A theme's "bg=#{@thm_bg}": what tmux makes of it. */
		free(status);
		if (tmux_run(&status, "display-message", "-p",
		    "#{E:status-style}", (char *)NULL) != 0) {
			free(status);
			status = NULL;
		} else
			status[strcspn(status, "\n")] = '\0';
	}
	ui_cfg.light = uiformat_style_light(status);
	ui_cfg.literal_unescapes = lisad.caps.literal_unescapes;
	free(status);

	buf_init(&script);
	ui_badge_flags = 0;
	for (i = 0; i < UI_NOPTIONS; i++)
		ui_apply_option(&script, i);
	ui_formats(&script, 1);
	ui_remove_keys(&script);
	if (tmux_source(script.data) != 0)
		log_warnx("ui: some commands failed");
	buf_reset(&script);
	ui_apply_keys(&script);
	ui_snap_clear();
	if (tmux_source(script.data) != 0)
		log_warnx("ui: key bindings failed");
	buf_free(&script);
	log_debug("ui applied (borders %s)", ui_border_is_auto ?
	    "per agent window" : "the user's");
	publish_all();
}

/*
 * The keys' files (KEY.key-PID, plugin/lisa/cmd-key-to.c): gone with us,
 * once our socket is gone (lisad_stop), so that a press under way then
 * finds no socket and takes away a file it writes later still.
 */
void
ui_remove_key_files(void)
{
	struct dirent	*de;
	DIR		*d;
	char		*prefix, *path;
	size_t		 n;

	if ((d = opendir(lisad.rundir)) == NULL)
		return;
	xasprintf(&prefix, "%s.key-", lisad.sid.key);
	n = strlen(prefix);
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, prefix, n) != 0)
			continue;
		path = runtime_path(lisad.rundir, de->d_name, "");
		(void)unlink(path);
		free(path);
	}
	closedir(d);
	free(prefix);
}

void
ui_restore(void)
{
	struct buf	script;
	size_t		i;

	buf_init(&script);
	ui_snap_take();
	for (i = 0; i < UI_NOPTIONS; i++)
		ui_restore_option(&script, i);
	ui_remove_keys(&script);
	ui_snap_clear();
	ui_formats(&script, 0);
	fleet_restore(&script);
	publish_restore(&script);
	if (tmux_source(script.data) != 0)
		log_warnx("ui: restoring failed");
	buf_free(&script);
}
