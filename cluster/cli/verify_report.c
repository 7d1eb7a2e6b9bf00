/* SPDX-License-Identifier: MIT */
/* The reports of `carrera verify` (verify_report.h). */
#define _POSIX_C_SOURCE 200809L

#include "verify_report.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "errmsg.h"
#include "svg_plot.h"

typedef struct Tally {
    size_t positions, agreed, disagreed, failed, suite;
} Tally;

static void tally(Tally *t, const Outcome *o)
{
    t->positions++;
    t->agreed += o->status == OUTCOME_AGREE;
    t->disagreed += o->status == OUTCOME_DIFFER;
    t->failed += o->status == OUTCOME_ENGINE_FAILED;
    t->suite += o->status == OUTCOME_SUITE_WRONG;
}

/* The tally of every position, or of one source's (source >= 0). */
static Tally tally_of(const VerifyRun *r, int source)
{
    Tally t = { 0 };
    for (size_t i = 0; i < r->ps->n; i++)
        if (source < 0 || r->ps->v[i].source == source)
            tally(&t, &r->outcomes[i]);
    return t;
}

static void table_row(FILE *out, const char *source, const char *rules, const Tally *t)
{
    fprintf(out, "| %s | %s | %zu | %zu | %zu | %zu | %zu |\n", rules, source, t->positions,
            t->agreed, t->disagreed, t->failed, t->suite);
}

static const char *message_of(const Outcome *o) { return o->message ? o->message : "(no memory)"; }

void report_text(FILE *out, const VerifyRun *r)
{
    const VerifyPositions *ps = r->ps;
    for (size_t g = 0; g < r->groups->n; g++) {
        const Group *x = &r->groups->v[g];
        const VerifyPosition *p = &ps->v[x->example];
        fprintf(out, "group %zu: %s: %zu position%s; the smallest, from %s:\n", g + 1, x->key,
                x->count, x->count == 1 ? "" : "s", p->name);
        fputs(r->outcomes[x->example].finding.report, out);
        fputc('\n', out);
    }
    for (size_t i = 0; i < ps->n; i++) {
        const Outcome *o = &r->outcomes[i];
        if (o->status == OUTCOME_ENGINE_FAILED)
            fprintf(out, "engine failure: %s (%s) at depth %d: %s\n", ps->v[i].name, ps->v[i].fen,
                    o->depth, message_of(o));
        else if (o->status == OUTCOME_SUITE_WRONG)
            fprintf(out, "suite wrong: %s (%s): %s\n", ps->v[i].name, ps->v[i].fen, message_of(o));
    }
    fprintf(out, "\n| rules | source | positions | agreed | disagreed | engine failures | "
                 "suite wrong |\n|---|---|---:|---:|---:|---:|---:|\n");
    Tally all = tally_of(r, -1);
    for (int s = 0; s < ps->n_sources; s++) {
        Tally t = tally_of(r, s);
        table_row(out, ps->labels[s], r->rules, &t);
    }
    if (ps->n_sources > 1)
        table_row(out, "all", r->rules, &all);
    int low = 0, high = 0;
    uint64_t nodes = 0;
    for (size_t i = 0; i < ps->n; i++) {
        const Outcome *o = &r->outcomes[i];
        if (o->status != OUTCOME_AGREE && o->status != OUTCOME_DIFFER)
            continue;
        nodes += o->nodes;
        low = low && low < o->depth ? low : o->depth;
        high = high > o->depth ? high : o->depth;
    }
    fprintf(out, "\n%s: %zu of %zu positions agree", r->engine, all.agreed, all.positions);
    if (high)
        fprintf(out, " (depth %d to %d, %" PRIu64 " nodes)", low, high, nodes);
    if (r->groups->n)
        fprintf(out, "; %zu disagree, in %zu group%s", all.disagreed, r->groups->n,
                r->groups->n == 1 ? "" : "s");
    if (all.failed)
        fprintf(out, "; the engine failed on %zu", all.failed);
    if (all.suite)
        fprintf(out, "; %zu suite line%s wrong", all.suite, all.suite == 1 ? "" : "s");
    fputs("\n", out);
}

static int finish(FILE *out, const char *path, char *err, size_t errlen)
{
    if (ferror(out) | (fclose(out) != 0))
        return errmsg_fail(err, errlen, "cannot write '%s': %s", path, strerror(errno));
    return 0;
}

static FILE *create(const char *path, char *err, size_t errlen)
{
    FILE *out = fopen(path, "we");
    if (!out)
        errmsg_set(err, errlen, "cannot write '%s': %s", path, strerror(errno));
    return out;
}

int report_junit(const char *path, const VerifyRun *r, char *err, size_t errlen)
{
    FILE *out = create(path, err, errlen);
    if (!out)
        return -1;
    const VerifyPositions *ps = r->ps;
    Tally all = tally_of(r, -1);
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"%zu\" "
            "failures=\"%zu\" errors=\"%zu\">\n",
            all.positions, all.disagreed + all.suite, all.failed);
    for (int s = 0; s < ps->n_sources; s++) {
        Tally t = tally_of(r, s);
        fputs("  <testsuite name=\"carrera verify ", out);
        xml_put_text(out, r->rules);
        fputs(": ", out);
        xml_put_text(out, ps->labels[s]);
        fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n", t.positions,
                t.disagreed + t.suite, t.failed);
        for (size_t i = 0; i < ps->n; i++) {
            const VerifyPosition *p = &ps->v[i];
            const Outcome *o = &r->outcomes[i];
            if (p->source != s)
                continue;
            fputs("    <testcase classname=\"verify\" name=\"", out);
            xml_put_text(out, p->name);
            fputs(": ", out);
            xml_put_text(out, p->fen);
            fprintf(out, " depth %d\"", o->depth);
            if (o->status == OUTCOME_AGREE) {
                fputs("/>\n", out);
                continue;
            }
            const char *tag = o->status == OUTCOME_ENGINE_FAILED ? "error" : "failure";
            fprintf(out, ">\n      <%s message=\"", tag);
            xml_put_text(out, o->status == OUTCOME_DIFFER ? o->group : message_of(o));
            fputs("\">", out);
            xml_put_text(out, o->status == OUTCOME_DIFFER ? o->finding.report : message_of(o));
            fprintf(out, "</%s>\n    </testcase>\n", tag);
        }
        fputs("  </testsuite>\n", out);
    }
    fputs("</testsuites>\n", out);
    return finish(out, path, err, errlen);
}

static void json_string(FILE *out, const char *t)
{
    fputc('"', out);
    for (; t && *t; t++) {
        if (*t == '"' || *t == '\\')
            fprintf(out, "\\%c", *t);
        else if (*t == '\n')
            fputs("\\n", out);
        else if ((unsigned char)*t < 0x20)
            fprintf(out, "\\u%04x", (unsigned char)*t);
        else
            fputc(*t, out);
    }
    fputc('"', out);
}

/* A space-separated move list as a JSON array. */
static void json_moves(FILE *out, const char *moves)
{
    fputc('[', out);
    bool first = true;
    for (const char *t = moves ? moves : ""; *t;) {
        size_t len = strcspn(t, " ");
        if (len) {
            fprintf(out, "%s\"%.*s\"", first ? "" : ", ", (int)len, t);
            first = false;
        }
        t += len + (t[len] == ' ');
    }
    fputc(']', out);
}

static const char *status_word(OutcomeStatus s)
{
    static const char *const words[] = { "agree", "disagree", "engine failure", "suite wrong" };
    return words[s];
}

int report_json(const char *path, const VerifyRun *r, char *err, size_t errlen)
{
    FILE *out = create(path, err, errlen);
    if (!out)
        return -1;
    const VerifyPositions *ps = r->ps;
    Tally all = tally_of(r, -1);
    fputs("{\n  \"engine\": ", out);
    json_string(out, r->engine);
    fputs(",\n  \"rules\": ", out);
    json_string(out, r->rules);
    fprintf(out,
            ",\n  \"positions\": %zu, \"agreed\": %zu, \"disagreed\": %zu, "
            "\"engine_failures\": %zu, \"suite_wrong\": %zu,\n  \"groups\": [",
            all.positions, all.agreed, all.disagreed, all.failed, all.suite);
    for (size_t g = 0; g < r->groups->n; g++) {
        const Group *x = &r->groups->v[g];
        fprintf(out, "%s\n    {\"group\": ", g ? "," : "");
        json_string(out, x->key);
        fprintf(out, ", \"positions\": %zu, \"example\": ", x->count);
        json_string(out, ps->v[x->example].name);
        fputc('}', out);
    }
    fputs("\n  ],\n  \"findings\": [", out);
    bool first = true;
    for (size_t i = 0; i < ps->n; i++) {
        const Outcome *o = &r->outcomes[i];
        if (o->status == OUTCOME_AGREE)
            continue;
        const Finding *f = &o->finding;
        fprintf(out, "%s\n    {\"position\": ", first ? "" : ",");
        first = false;
        json_string(out, ps->v[i].name);
        fputs(", \"source\": ", out);
        json_string(out, ps->labels[ps->v[i].source]);
        fputs(", \"root\": ", out);
        json_string(out, ps->v[i].fen);
        fprintf(out, ", \"depth\": %d, \"status\": \"%s\"", o->depth, status_word(o->status));
        if (o->status == OUTCOME_DIFFER) {
            fputs(", \"group\": ", out);
            json_string(out, o->group);
            fputs(", \"path\": ", out);
            json_string(out, f->path);
            fputs(", \"fen\": ", out);
            json_string(out, f->fen);
            fprintf(out, ", \"fen_depth\": %d, \"carrera_only\": ", f->depth);
            json_moves(out, f->kind == FINDING_LISTS ? f->ours : "");
            fputs(", \"engine_only\": ", out);
            json_moves(out, f->theirs);
            if (f->kind != FINDING_LISTS) {
                fputs(", \"moves\": ", out);
                json_moves(out, f->ours);
            }
            fputs(", \"report\": ", out);
            json_string(out, f->report);
        } else {
            fputs(", \"message\": ", out);
            json_string(out, message_of(o));
        }
        fputc('}', out);
    }
    fputs("\n  ]\n}\n", out);
    return finish(out, path, err, errlen);
}
