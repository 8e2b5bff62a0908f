/*
 * The command line's words: global flags (-L, -S, -h, -V), the command,
 * its options and arguments. A command takes exactly the options its
 * usage line in cmd.c names, so `lisa help` is the truth about them; any
 * other is a usage error. Every usage error is worded one way, "lisa:
 * [COMMAND: ]what", followed by the usage line, and exits 2.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lisa.h"

/* A usage error: what was wrong, the usage line, exit 2. */
void
args_usage_error(const struct lisa_cmd *c, const char *fmt, ...)
{
	va_list	ap;

	fprintf(stderr, "lisa: ");
	if (c != NULL)
		fprintf(stderr, "%s: ", c->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	if (c != NULL)
		lisa_cmd_usage(stderr, c);
	else
		fprintf(stderr, "usage: lisa [-L socket-name | -S socket-path] "
		    "COMMAND [ARGUMENTS] (lisa help)\n");
	exit(2);
}

/* Does the command's usage line name this option? */
static int
args_takes(const struct lisa_cmd *c, const char *opt)
{
	const char	*p = c->args;
	size_t		 n = strlen(opt);

	while ((p = strstr(p, opt)) != NULL) {
		if ((p == c->args || strchr("[ |", p[-1]) != NULL) &&
		    (p[n] == '\0' || strchr("] |", p[n]) != NULL))
			return (1);
		p += n;
	}
	return (0);
}

/* The options that take a value, and where it goes. */
static const char **
args_value_slot(struct args *a, const char *opt)
{
	if (strcmp(opt, "--bytes") == 0)
		return (&a->bytes_s);
	if (strcmp(opt, "--expect") == 0)
		return (&a->expect);
	if (strcmp(opt, "--agent") == 0)
		return (&a->agent);
	if (strcmp(opt, "--reply") == 0)
		return (&a->reply);
	if (strcmp(opt, "--host") == 0)
		return (&a->host);
	if (strcmp(opt, "--since") == 0)
		return (&a->since);
	if (strcmp(opt, "--until") == 0)
		return (&a->until);
	if (strcmp(opt, "--timeout") == 0)
		return (&a->timeout_s);
	if (strcmp(opt, "--to") == 0)
		return (&a->to);
	if (strcmp(opt, "--at") == 0)
		return (&a->at);
	return (NULL);
}

static int *
args_flag_slot(struct args *a, const char *opt)
{
	if (strcmp(opt, "--json") == 0)
		return (&a->json);
	if (strcmp(opt, "-v") == 0)
		return (&a->verbose);
	if (strcmp(opt, "--wait") == 0)
		return (&a->wait);
	if (strcmp(opt, "--force") == 0)
		return (&a->force);
	if (strcmp(opt, "--fallback") == 0)
		return (&a->fallback);
	if (strcmp(opt, "--dry-run") == 0)
		return (&a->dry_run);
	if (strcmp(opt, "--follow") == 0)
		return (&a->follow);
	if (strcmp(opt, "--all") == 0)
		return (&a->all);
	if (strcmp(opt, "--restored") == 0)
		return (&a->restored);
	return (NULL);
}

void
args_parse(int argc, char **argv, struct args *a)
{
	const char	**slot;
	int		 *flag, i;

	memset(a, 0, sizeof *a);
	a->argv = xcalloc((size_t)argc + 1, sizeof *a->argv);
	a->opts = xcalloc((size_t)argc + 1, sizeof *a->opts);
	for (i = 1; i < argc; i++) {
		/* lisa run's options and command are its own (cmd-run.c). */
		if (a->argc > 0 && (strcmp(a->argv[0], "run") == 0 ||
		    strcmp(a->argv[0], "_run") == 0)) {
			if (a->argc == 1 && (strcmp(argv[i], "-h") == 0 ||
			    strcmp(argv[i], "--help") == 0))
				a->help = 1;
			a->argv[a->argc++] = argv[i];
			continue;
		}
		if (strcmp(argv[i], "-L") == 0 || strcmp(argv[i], "-S") == 0) {
			if (i + 1 >= argc || *argv[i + 1] == '\0')
				args_usage_error(NULL, "%s needs a socket %s",
				    argv[i], argv[i][1] == 'L' ? "name" :
				    "path");
			if (argv[i][1] == 'L')
				a->label = argv[++i];
			else
				a->path = argv[++i];
		} else if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0)
			a->help = 1;
		else if (strcmp(argv[i], "-V") == 0 ||
		    strcmp(argv[i], "--version") == 0)
			a->version = 1;
		else if (argv[i][0] == '-' && argv[i][1] != '\0' &&
		    (a->argc == 0 || strcmp(a->argv[0], "_hook") != 0)) {
			/* -f is --follow's short form. */
			if (strcmp(argv[i], "-f") == 0)
				argv[i] = (char *)"--follow";
			a->opts[a->nopts++] = argv[i];
			if ((slot = args_value_slot(a, argv[i])) != NULL) {
				if (i + 1 >= argc)
					args_usage_error(NULL, "%s needs a "
					    "value", argv[i]);
				*slot = argv[++i];
			} else if ((flag = args_flag_slot(a, argv[i])) != NULL)
				*flag = 1;
		} else
			a->argv[a->argc++] = argv[i];
	}
}

/*
 * The options against the command's usage line, and the values that must
 * be numbers or times: all usage errors, before anything is asked of tmux.
 */
void
args_check(const struct lisa_cmd *c, struct args *a)
{
	char		*end, *copy, *p, *w;
	unsigned int	 mask = 0;
	int		 i;

	for (i = 0; i < a->nopts; i++) {
		if (args_value_slot(a, a->opts[i]) == NULL &&
		    args_flag_slot(a, a->opts[i]) == NULL)
			args_usage_error(c, "unknown option: %s", a->opts[i]);
		if (!args_takes(c, a->opts[i]))
			args_usage_error(c, "unknown option: %s", a->opts[i]);
	}
	if (a->bytes_s != NULL) {
		a->bytes = strtoll(a->bytes_s, &end, 10);
		if (*a->bytes_s == '\0' || *end != '\0' || a->bytes <= 0)
			args_usage_error(c, "--bytes: not a count: %s",
			    a->bytes_s);
	}
	if (a->timeout_s != NULL) {
		a->timeout = strtod(a->timeout_s, &end);
		if (*a->timeout_s == '\0' || *end != '\0' || a->timeout < 0)
			args_usage_error(c, "--timeout: not seconds: %s",
			    a->timeout_s);
	}
	if (a->until != NULL) {
		copy = p = xstrdup(a->until);
		while ((w = strsep(&p, ", ")) != NULL) {
			if (*w != '\0' && cls_state_mask(w, &mask) != 0)
				args_usage_error(c, "unknown state: %s (use %s)",
				    w, cls_state_names_help());
		}
		free(copy);
	}
	if (a->since != NULL && (a->since_ms = args_since(a->since)) < 0)
		args_usage_error(c, "--since: not a time: %s (RFC 3339, or "
		    "30s, 10m, 2h ago)", a->since);
}

/* --since: RFC 3339, or "30s"/"10m"/"2h" ago; epoch ms, -1 if neither. */
long long
args_since(const char *v)
{
	struct tm	 tm;
	char		*end;
	double		 n;
	const char	*p;

	memset(&tm, 0, sizeof tm);
	if ((p = strptime(v, "%Y-%m-%dT%H:%M:%S", &tm)) != NULL &&
	    (*p == '\0' || *p == '.' || *p == 'Z'))
		return ((long long)timegm(&tm) * 1000 +
		    (*p == '.' ? atoi(p + 1) : 0));
	n = strtod(v, &end);
	if (end == v || n < 0)
		return (-1);
	switch (*end) {
	case 'h':
		n *= 3600;
		break;
	case 'm':
		n *= 60;
		break;
	case 's':
	case '\0':
		break;
	default:
		return (-1);
	}
	if (*end != '\0' && end[1] != '\0')
		return (-1);
	return ((long long)time(NULL) * 1000 - (long long)(n * 1000));
}
