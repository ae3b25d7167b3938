/* The search's constants and types, shared by csearch.c only; see csearch.h for its use. */
#ifndef ULTIMATE_CSEARCH_TYPES_H
#define ULTIMATE_CSEARCH_TYPES_H

#include <stdint.h>

#define WIN 1000000
#define FULL 0x1FF
#define EXACT 0
#define LOWER 1
#define UPPER 2
#define TT_BITS 20
#define TT_SIZE (1u << TT_BITS)
#define MAX_PLY 96

typedef struct {
    uint64_t key;
    int32_t value;
    uint32_t generation;
    int8_t depth;
    int8_t flag;
    int8_t move;
} Entry;

typedef struct {
    int marks[2][9];
    int won[2];
    int closed;
    int target;
    double chance[2][9];
    uint64_t hash;
    long long nodes;
    double deadline; /* seconds of CLOCK_MONOTONIC; 0 for none */
    int timed_out;
    int history[2][81];
    double w_lines, w_boards, w_choice;
} Search;

typedef struct {
    int won, closed, mark, target;
    double c0, c1;
} Saved;

#endif
