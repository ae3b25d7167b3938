/* The ultimate search in C; see csearch.h. */
#include "csearch.h"

#include "csearch_types.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double chance_table[1 << 18];
static unsigned char won_table[512];
static uint16_t winning_cells[512];
static uint64_t zobrist[2][81], zobrist_target[10];
/* Each thread searches with a transposition table of its own (the bot runs searches in several
   threads at once, the GIL released): allocated at a thread's first search, kept for the
   thread's next ones. The tables above are filled once and only read afterwards. */
static _Thread_local Entry *tt = NULL;
static _Thread_local uint32_t generation = 0;

double csearch_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static const int lines[8] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};

void csearch_init(void) {
    for (int m = 0; m < 512; m++) {
        won_table[m] = 0;
        for (int i = 0; i < 8; i++)
            if ((m & lines[i]) == lines[i]) won_table[m] = 1;
    }
    for (int m = 0; m < 512; m++) {
        int cells = 0;
        for (int c = 0; c < 9; c++)
            if (!(m >> c & 1) && won_table[m | 1 << c]) cells |= 1 << c;
        winning_cells[m] = (uint16_t)cells;
    }
    uint64_t state = 20261125;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 81; i++) zobrist[s][i] = splitmix(&state);
    for (int i = 0; i < 10; i++) zobrist_target[i] = splitmix(&state);
}

static void rate(Search *s, int b) {
    int xs = s->marks[0][b], os = s->marks[1][b], bit = 1 << b;
    if (won_table[xs] || won_table[os]) {
        int winner = won_table[xs] ? 0 : 1;
        s->won[winner] |= bit;
        s->closed |= bit;
        s->chance[winner][b] = 1.0;
        s->chance[1 - winner][b] = 0.0;
    } else if ((xs | os) == FULL) {
        s->closed |= bit;
        s->chance[0][b] = s->chance[1][b] = 0.0;
    } else {
        s->chance[0][b] = chance_table[xs | os << 9];
        s->chance[1][b] = chance_table[os | xs << 9];
    }
}

/* The same arithmetic, in the same order, as evaluation.score and Search.evaluate. */
static int evaluate(const Search *s, int side, int target) {
    const double *a = s->chance[0], *b = s->chance[1];
    double line = a[0] * a[1] * a[2] + a[3] * a[4] * a[5] + a[6] * a[7] * a[8] + a[0] * a[3] * a[6]
                  + a[1] * a[4] * a[7] + a[2] * a[5] * a[8] + a[0] * a[4] * a[8] + a[2] * a[4] * a[6]
                  - b[0] * b[1] * b[2] - b[3] * b[4] * b[5] - b[6] * b[7] * b[8] - b[0] * b[3] * b[6]
                  - b[1] * b[4] * b[7] - b[2] * b[5] * b[8] - b[0] * b[4] * b[8] - b[2] * b[4] * b[6];
    double boards = 3 * (a[0] + a[2] + a[6] + a[8] - b[0] - b[2] - b[6] - b[8])
                    + 2 * (a[1] + a[3] + a[5] + a[7] - b[1] - b[3] - b[5] - b[7])
                    + 4 * (a[4] - b[4]);
    double value = s->w_lines * line + s->w_boards * boards;
    if (side) value = -value;
    if (target < 0) value += s->w_choice;
    return (int)value;
}

static int moves_of(const Search *s, int target, int *out) {
    int n = 0;
    for (int b = 0; b < 9; b++) {
        if (target >= 0 ? b != target : (s->closed >> b & 1)) continue;
        int free = FULL & ~(s->marks[0][b] | s->marks[1][b]);
        for (int c = 0; c < 9; c++)
            if (free >> c & 1) out[n++] = 9 * b + c;
    }
    return n;
}

/* Make a move; returns 0 (and makes nothing) if it wins the game. */
static int play(Search *s, int side, int move, Saved *saved) {
    int b = move / 9, c = move % 9;
    saved->won = s->won[side];
    saved->closed = s->closed;
    saved->mark = s->marks[side][b];
    saved->target = s->target;
    saved->c0 = s->chance[0][b];
    saved->c1 = s->chance[1][b];
    s->marks[side][b] |= 1 << c;
    rate(s, b);
    if (won_table[s->won[side]]) {
        s->won[side] = saved->won;
        s->closed = saved->closed;
        s->marks[side][b] = saved->mark;
        s->chance[0][b] = saved->c0;
        s->chance[1][b] = saved->c1;
        return 0;
    }
    int target = (s->closed >> c & 1) ? -1 : c;
    s->hash ^= zobrist[side][move] ^ zobrist_target[s->target + 1] ^ zobrist_target[target + 1];
    s->target = target;
    return 1;
}

static void undo(Search *s, int side, int move, const Saved *saved) {
    int b = move / 9;
    s->hash ^= zobrist[side][move] ^ zobrist_target[s->target + 1] ^ zobrist_target[saved->target + 1];
    s->won[side] = saved->won;
    s->closed = saved->closed;
    s->marks[side][b] = saved->mark;
    s->target = saved->target;
    s->chance[0][b] = saved->c0;
    s->chance[1][b] = saved->c1;
}

static int negamax(Search *s, int depth, int alpha, int beta, int side, int ply) {
    s->nodes++;
    if (!(s->nodes & 4095) && s->deadline > 0 && csearch_now() > s->deadline) s->timed_out = 1;
    if (s->timed_out) return 0;
    if (s->closed == FULL) return 0;
    int target = s->target;
    if (depth <= 0 || ply >= MAX_PLY) return evaluate(s, side, target);
    uint64_t key = s->hash;
    Entry *e = &tt[key & (TT_SIZE - 1)];
    int first = -1;
    if (e->key == key && e->generation == generation) {
        first = e->move;
        if (e->depth >= depth) {
            int value = e->value;
            if (value > WIN - 200) value -= ply;
            else if (value < 200 - WIN) value += ply;
            if (e->flag == EXACT) return value;
            if (e->flag == LOWER && value >= beta) return value;
            if (e->flag == UPPER && value <= alpha) return value;
        }
    }
    int moves[81], keys[81];
    int n = moves_of(s, target, moves);
    const int *history = s->history[side];
    for (int i = 0; i < n; i++) {
        int m = moves[i], b = m / 9, c = m % 9;
        int k = history[m] + ((winning_cells[s->marks[side][b]] >> c & 1) ? (1 << 28) : 0);
        if (m == first) k = 1 << 30;
        int j = i;
        while (j > 0 && keys[j - 1] < k) {
            keys[j] = keys[j - 1];
            moves[j] = moves[j - 1];
            j--;
        }
        keys[j] = k;
        moves[j] = m;
    }
    int start_alpha = alpha, best = -WIN - 1, best_move = -1;
    for (int i = 0; i < n; i++) {
        int move = moves[i], value;
        Saved saved;
        if (!play(s, side, move, &saved)) {
            value = WIN - ply - 1;
        } else {
            if (i == 0) {
                value = -negamax(s, depth - 1, -beta, -alpha, 1 - side, ply + 1);
            } else {
                value = -negamax(s, depth - 1, -alpha - 1, -alpha, 1 - side, ply + 1);
                if (alpha < value && value < beta)
                    value = -negamax(s, depth - 1, -beta, -value, 1 - side, ply + 1);
            }
            undo(s, side, move, &saved);
        }
        if (s->timed_out) return 0;
        if (value > best) {
            best = value;
            best_move = move;
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta) {
                    s->history[side][move] += depth * depth;
                    break;
                }
            }
        }
    }
    int flag = (start_alpha < best && best < beta) ? EXACT : best >= beta ? LOWER : UPPER;
    int stored = best > WIN - 200 ? best + ply : best < 200 - WIN ? best - ply : best;
    e->key = key;
    e->value = stored;
    e->generation = generation;
    e->depth = (int8_t)(depth > 127 ? 127 : depth);
    e->flag = (int8_t)flag;
    e->move = (int8_t)best_move;
    return best;
}

void csearch_set_table(const double *table) {
    memcpy(chance_table, table, sizeof(chance_table));
}

int csearch_root(const int x_marks[9], const int o_marks[9], int side, int target,
                 const int *moves, int count, int max_depth, double deadline,
                 const double weights[3], int *values, int *best_out, int *best_value_out,
                 long long *nodes) {
    if (!tt && !(tt = calloc(TT_SIZE, sizeof(Entry)))) return -1;
    generation++;
    Search s;
    memset(&s, 0, sizeof(s));
    memcpy(s.marks[0], x_marks, sizeof(s.marks[0]));
    memcpy(s.marks[1], o_marks, sizeof(s.marks[1]));
    s.w_lines = weights[0];
    s.w_boards = weights[1];
    s.w_choice = weights[2];
    s.target = target;
    s.hash = zobrist_target[target + 1];
    for (int b = 0; b < 9; b++) {
        for (int who = 0; who < 2; who++)
            for (int c = 0; c < 9; c++)
                if (s.marks[who][b] >> c & 1) s.hash ^= zobrist[who][9 * b + c];
        rate(&s, b);
    }
    int order[81];
    for (int i = 0; i < count; i++) {
        values[i] = 0;
        order[i] = i;
    }
    int best = moves[0], best_value = 0, done = 0;
    for (int level = 1; level <= max_depth; level++) {
        s.deadline = level > 1 ? deadline : 0;
        /* stable sort of the order by the last values, highest first */
        for (int i = 1; i < count; i++) {
            int item = order[i], j = i;
            while (j > 0 && values[order[j - 1]] < values[item]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = item;
        }
        int found = -1, found_value = -WIN - 1, alpha = -WIN - 1;
        for (int i = 0; i < count; i++) {
            int index = order[i], move = moves[index], value;
            Saved saved;
            if (!play(&s, side, move, &saved)) {
                value = WIN - 1;
            } else {
                if (found < 0) {
                    value = -negamax(&s, level - 1, -WIN - 1, WIN + 1, 1 - side, 1);
                } else {
                    value = -negamax(&s, level - 1, -alpha - 1, -alpha, 1 - side, 1);
                    if (value > alpha && !s.timed_out)
                        value = -negamax(&s, level - 1, -WIN - 1, -alpha, 1 - side, 1);
                }
                undo(&s, side, move, &saved);
            }
            if (s.timed_out) break;
            values[index] = value;
            if (value > found_value) {
                found = move;
                found_value = value;
                if (value > alpha) alpha = value;
            }
        }
        if (s.timed_out) {
            if (found >= 0) {
                best = found;
                best_value = found_value;
            }
            break;
        }
        best = found;
        best_value = found_value;
        done = level;
        if (best_value > WIN - 200 || best_value < 200 - WIN || count == 1) break;
    }
    *best_out = best;
    *best_value_out = best_value;
    *nodes = s.nodes;
    return done;
}
