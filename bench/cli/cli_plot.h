/*
 * bench/cli/cli_plot.h - --plot FILE on the command line (bench, compare;
 * stat -I): the checks before a command measures, and what a writer's
 * -errno means to the user (doc/plots.md, doc/bad-input.md).
 */
#ifndef BARETMA_CLI_PLOT_H
#define BARETMA_CLI_PLOT_H

/* --plot FILE itself is a row of each command's table (bench/cli/cli_opt.h CLI_OPT_PLOT). */

/*
 * cli_plot_check - after parsing, before anything runs: can @path (NULL:
 * no --plot) be drawn into (plot_check_path)?  Says why not, one line:
 * 64 (the extension), 69 (built without cairo: how to get it), 73 (a
 * symbolic link, a directory, a FIFO or device).  Returns 0 or that status.
 */
int cli_plot_check(const char *cmd, const char *path);

/*
 * cli_plot_done - after a plot_*_write into @path returned @err: 0, or the
 * one line why, and its status: 73 the file cannot be created, 74 it
 * cannot be written, 69 nothing to draw (no Top-down), 64 / 69 / 73 as
 * cli_plot_check, 70 out of memory.
 */
int cli_plot_done(const char *cmd, const char *path, int err);

/*
 * cli_plot_run - what a picture's header says made it (bench/output/plot.h
 * struct plot_run): this process's command line, "baretma" and each
 * argument as a shell word (quoted where it needs it); on a dry run
 * (state_dir_dry_run) what makes it one ("simulated PMU, CPUID dump: not
 * this machine's counters").  Valid until the next call; a part NULL when
 * there was no memory for it (the picture is drawn without it).
 */
struct plot_run;
const struct plot_run *cli_plot_run(void);

#endif
