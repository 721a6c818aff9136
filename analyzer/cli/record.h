/*
 * cli/record.h - what `gotcha record` does beside the command it runs (cli_record_aside.c): the
 * host facts, gathered by a child process while the command already runs, and the kernel log of
 * the run's window. cli_record.c owns the command, its signals and run.txt.
 *
 * The gatherer is a fork of gotcha in a process group of its own (a Ctrl-C from the terminal
 * reaches the command, not it) with the default signal dispositions. It writes preflight.txt,
 * preflight.json, host-facts.txt, nvidia-smi.txt and pip-freeze.txt into the record directory
 * and tells the parent on a pipe, one line each, what the parent needs: the kernel log's last
 * line when the run began (the window starts after it) and whether nvidia-smi answered (so that
 * sampling it makes sense). Every tool it runs has a deadline, so it ends on its own; the parent
 * reads the pipe from its poll loop and reaps the gatherer before it reads the record back.
 */
#ifndef CLI_RECORD_H
#define CLI_RECORD_H

#include <stddef.h>
#include <sys/types.h>

#include "common/az.h"

struct rec_aside {
    pid_t pid;        /* the gatherer; -1 when none runs (never started, or reaped) */
    int fd;           /* read end of its pipe; -1 once closed */
    struct az_buf in; /* bytes read that do not yet make a whole line */
    int smi;          /* -1 not known yet, 0 nvidia-smi did not answer, 1 it did */
    int have_mark;    /* 1: the kernel log was read when the run began (mark may be "") */
    char *mark;       /* its last line then (owned) */
    int done;         /* 1: the gatherer said it wrote everything */
};

/**
 * rec_aside_start() : fork the gatherer for record directory dir; cmd (ncmd words) is the
 * command line, read for launch settings (tensor parallelism, nodes). Flush stdio first.
 * @return 0, or -1 when it cannot start (a->pid stays -1: the record goes on without facts).
 */
int rec_aside_start(struct rec_aside *a, const char *dir, char *const *cmd, size_t ncmd);

/* Read what the gatherer wrote (a->fd is readable). @return 1 at end of file (fd closed). */
int rec_aside_read(struct rec_aside *a);

/* Reap the gatherer; with kill_it, SIGKILL its process group first. Idempotent. */
void rec_aside_reap(struct rec_aside *a, int kill_it);

void rec_aside_free(struct rec_aside *a);

/* Write len bytes of data to dir/name (created or truncated). @return 0, or -1 on any error. */
int rec_write_file(const char *dir, const char *name, const char *data, size_t len);

/**
 * rec_kernel_log() : keep the kernel messages of the run's window [start, end] (epoch seconds)
 * in dir/kernel.log: dmesg's lines after a->mark, else the kernel journal's lines of the window
 * (journalctl -k); neither readable: no file. note (notesz bytes) gets run.txt's "kernel log"
 * value; @return 1 when a kernel log could be read (even with no line in the window), 0 when
 * none could (note says why).
 */
int rec_kernel_log(const char *dir, const struct rec_aside *a, long long start, long long end,
                   char *note, size_t notesz);

#endif /* CLI_RECORD_H */
