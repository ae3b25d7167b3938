/* The ultimate search in C: the same principal variation search as engine/ultimate/search.py
 * (the reference, and the fallback where the extension is not built), with the same evaluation
 * and root, many times as fast. Pure computation: no I/O and no Python; _core.c binds it. */
#ifndef ULTIMATE_CSEARCH_H
#define ULTIMATE_CSEARCH_H

#include <stdint.h>

/* Set up the fixed tables (lines, Zobrist keys); once, before anything else. */
void csearch_init(void);

/* Copy the chance table: 2**18 doubles, as evaluation.chances gives them. */
void csearch_set_table(const double *table);

/* As search.run: deeper and deeper over `moves` (board-major, `count` of them) until
 * `max_depth` or the CLOCK_MONOTONIC time `deadline` (0: none; the first ply always completes).
 * `values` receives each move's value at the depth completed; returns that depth, or -1 if the
 * transposition table could not be allocated. Not reentrant: one call at a time. */
int csearch_root(const int x_marks[9], const int o_marks[9], int side, int target,
                 const int *moves, int count, int max_depth, double deadline,
                 const double weights[3], int *values, int *best, int *best_value,
                 long long *nodes);

/* Seconds of CLOCK_MONOTONIC, the clock of Python's time.monotonic(). */
double csearch_now(void);

#endif
