/* SPDX-License-Identifier: MIT */
/* The append-only journal of `carrera verify` (verify_journal.h). Fields are separated by tabs,
 * with backslash, tab and newline escaped inside them, so that a record is one line. */
#define _POSIX_C_SOURCE 200809L

#include "verify_journal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errmsg.h"
#include "exit_status.h"

#define MAGIC    "carrera verify journal 1"
#define N_FIELDS 14

static const char *const status_names[] = { "agree", "differ", "failed", "suite" };
static const char *const kind_names[] = { "none", "lists", "playing", "counts" };

static void put_escaped(FILE *out, const char *text)
{
    for (const char *c = text ? text : ""; *c; c++) {
        if (*c == '\\')
            fputs("\\\\", out);
        else if (*c == '\t')
            fputs("\\t", out);
        else if (*c == '\n')
            fputs("\\n", out);
        else
            fputc(*c, out);
    }
}

/* Undoes put_escaped in place. */
static void unescape(char *t)
{
    char *o = t;
    for (const char *c = t; *c; c++) {
        if (*c == '\\' && c[1]) {
            c++;
            *o++ = *c == 't' ? '\t' : *c == 'n' ? '\n' : *c;
        } else {
            *o++ = *c;
        }
    }
    *o = '\0';
}

static int lookup(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

/* Reads one record (its fields split in place) into outcomes; false when it is damaged or names
 * a position this run does not have. */
static bool read_record(char *line, const VerifyPositions *ps, Outcome *outcomes)
{
    char *f[N_FIELDS];
    int n = 0;
    for (char *t = line; n < N_FIELDS; n++) {
        f[n] = t;
        t = strchr(t, '\t');
        if (!t) {
            n++;
            break;
        }
        *t++ = '\0';
    }
    if (n != N_FIELDS)
        return false;
    for (int i = 0; i < N_FIELDS; i++)
        unescape(f[i]);
    char *end;
    unsigned long long index = strtoull(f[0], &end, 10);
    int status = lookup(status_names, 4, f[1]), kind = lookup(kind_names, 4, f[5]);
    if (*end || index >= ps->n || status < 0 || kind < 0 || strcmp(f[4], ps->v[index].fen) != 0 ||
        outcomes[index].done)
        return false;
    Outcome *o = &outcomes[index];
    *o = (Outcome){ .done = true, .status = (OutcomeStatus)status };
    o->depth = atoi(f[2]);
    o->nodes = strtoull(f[3], NULL, 10);
    Finding *x = &o->finding;
    x->kind = (FindingKind)kind;
    snprintf(o->group, sizeof o->group, "%s", f[6]);
    snprintf(x->path, sizeof x->path, "%s", f[7]);
    snprintf(x->fen, sizeof x->fen, "%s", f[8]);
    x->depth = atoi(f[9]);
    if (status == OUTCOME_DIFFER) {
        x->ours = strdup(f[10]);
        x->theirs = strdup(f[11]);
        x->report = strdup(f[12]);
    }
    if (f[13][0])
        o->message = strdup(f[13]);
    return true;
}

/* Reads an existing journal; *fresh is set when there is none. Returns 0, or the exit status
 * with a message: EXIT_USAGE for a file that is no journal of this run, EXIT_FAILED for one that
 * cannot be read or cut. */
static int read_journal(int fd, const char *path, const char *options, const VerifyPositions *ps,
                        Outcome *outcomes, size_t *resumed, bool *fresh, char *err, size_t errlen)
{
    *fresh = false;
    FILE *in = fdopen(fcntl(fd, F_DUPFD_CLOEXEC, 0), "r");
    if (!in) {
        errmsg_set(err, errlen, "cannot read the journal '%s': %s", path, strerror(errno));
        return EXIT_FAILED;
    }
    char *line = NULL;
    size_t cap = 0, number = 0;
    off_t good = 0; /* the end of the last whole line */
    ssize_t len;
    int rc = 0;
    while (rc == 0 && (len = getline(&line, &cap, in)) >= 0) {
        number++;
        if (line[len - 1] != '\n')
            break; /* cut short by a kill: dropped */
        line[len - 1] = '\0';
        if (number == 1 && strcmp(line, MAGIC) != 0) {
            errmsg_set(err, errlen, "'%s' is not a journal of carrera verify", path);
            rc = EXIT_USAGE;
        } else if (number == 2) {
            char want[4096];
            unescape(line);
            if (strncmp(line, "options\t", 8) != 0 || strcmp(line + 8, options) != 0) {
                snprintf(want, sizeof want, "%s", options);
                errmsg_set(err, errlen,
                           "the journal '%s' belongs to another run: it was written for '%.900s', "
                           "this run is '%.900s' (give the same options, or another file)",
                           path, strncmp(line, "options\t", 8) == 0 ? line + 8 : line, want);
                rc = EXIT_USAGE;
            }
        } else if (number > 2) {
            if (!read_record(line, ps, outcomes)) {
                errmsg_set(err, errlen,
                           "the journal '%s' is damaged at line %zu (or its positions are not "
                           "this run's)",
                           path, number);
                rc = EXIT_USAGE;
            }
            *resumed += rc == 0;
        }
        good += len;
    }
    free(line);
    fclose(in);
    if (rc == 0 && number < 2) {
        /* Killed before the header was whole: start again. */
        *resumed = 0;
        *fresh = true;
        good = 0;
    }
    if (rc == 0 && ftruncate(fd, good) != 0) {
        errmsg_set(err, errlen, "cannot write the journal '%s': %s", path, strerror(errno));
        rc = EXIT_FAILED;
    }
    return rc;
}

static int write_all(int fd, const char *text, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, text, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        text += n;
        len -= (size_t)n;
    }
    return 0;
}

int journal_open(Journal *j, const char *path, const char *options, const VerifyPositions *ps,
                 Outcome *outcomes, size_t *resumed, char *err, size_t errlen)
{
    *resumed = 0;
    j->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (j->fd < 0) {
        errmsg_set(err, errlen, "cannot open the journal '%s': %s", path, strerror(errno));
        return EXIT_FAILED;
    }
    bool fresh;
    int status = read_journal(j->fd, path, options, ps, outcomes, resumed, &fresh, err, errlen);
    if (status != EXIT_OK) {
        journal_close(j);
        return status;
    }
    if (!fresh)
        return EXIT_OK;
    char *head = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&head, &len);
    if (out) {
        fprintf(out, "%s\noptions\t", MAGIC);
        put_escaped(out, options);
        fputc('\n', out);
    }
    if (!out || fclose(out) != 0 || write_all(j->fd, head, len) != 0) {
        errmsg_set(err, errlen, "cannot write the journal '%s': %s", path, strerror(errno));
        free(head);
        journal_close(j);
        return EXIT_FAILED;
    }
    free(head);
    return EXIT_OK;
}

int journal_append(Journal *j, size_t index, const VerifyPosition *p, const Outcome *o, char *err,
                   size_t errlen)
{
    char *line = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&line, &len);
    if (!out)
        return errmsg_fail(err, errlen, "out of memory");
    const Finding *x = &o->finding;
    fprintf(out, "%zu\t%s\t%d\t%" PRIu64 "\t", index, status_names[o->status], o->depth, o->nodes);
    const char *texts[] = { p->fen, kind_names[x->kind], o->group, x->path, x->fen };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        put_escaped(out, texts[i]);
        fputc('\t', out);
    }
    fprintf(out, "%d\t", x->depth);
    const char *more[] = { x->ours, x->theirs, x->report, o->message };
    for (size_t i = 0; i < sizeof more / sizeof *more; i++) {
        put_escaped(out, more[i]);
        fputc(i + 1 < sizeof more / sizeof *more ? '\t' : '\n', out);
    }
    int rc = fclose(out) == 0 ? write_all(j->fd, line, len) : -1;
    if (rc != 0)
        errmsg_set(err, errlen, "cannot write the journal: %s", strerror(errno));
    free(line);
    return rc;
}

void journal_close(Journal *j)
{
    if (j->fd >= 0)
        close(j->fd);
    j->fd = -1;
}
