/*
 * The generic backend's one call that needs the system's own interface
 * on macOS: a process's working directory, from libproc (the directory
 * tmux itself shows as pane_current_path there). lisa learns where an
 * agent works from it (Codex's, Gemini's and Qwen's files, the record
 * lisa resume reads).
 */
#include <sys/types.h>

#include <libproc.h>
#include <string.h>

#include "osdep.h"

int
osdep_cwd(pid_t pid, char *buf, size_t size)
{
	struct proc_vnodepathinfo	info;

	memset(&info, 0, sizeof info);
	if (proc_pidinfo(pid, PROC_PIDVNODEPATHINFO, 0, &info,
	    sizeof info) != (int)sizeof info ||
	    info.pvi_cdir.vip_path[0] != '/' ||
	    strlen(info.pvi_cdir.vip_path) >= size)
		return (-1);
	memcpy(buf, info.pvi_cdir.vip_path, strlen(info.pvi_cdir.vip_path) + 1);
	return (0);
}
