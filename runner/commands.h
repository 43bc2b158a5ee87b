/*
 * commands.h — the subcommands of smtbench. Each takes the arguments after the program name
 * (argv[0] is the subcommand's own name, ready for getopt_long) and returns the exit status.
 */
#ifndef SMTBENCH_RUNNER_COMMANDS_H
#define SMTBENCH_RUNNER_COMMANDS_H

int cmd_topo(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_fleet(int argc, char **argv);

#endif
