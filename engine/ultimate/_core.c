/* The ultimate search in C: the same principal variation search as engine/ultimate/search.py
 * (the reference, and the fallback where this module is not built), with the same evaluation
 * and root, run about fifty times as fast. Pure computation: no I/O, no Python objects inside
 * the search. One entry point, root(); the chance table is set once by set_table(). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

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
    uint16_t generation;
    int8_t depth;
    int8_t flag;
    int8_t move;
} Entry;

static double chance_table[1 << 18];
static int have_table = 0;
static unsigned char won_table[512];
static uint16_t winning_cells[512];
static uint64_t zobrist[2][81], zobrist_target[10];
static Entry *tt = NULL;
static uint16_t generation = 0;
static PyThread_type_lock tt_lock = NULL; /* one search at a time uses the table */

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

static double now(void) {
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

static void init_tables(void) {
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
    if (!(s->nodes & 4095) && s->deadline > 0 && now() > s->deadline) s->timed_out = 1;
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

static int read_ints(PyObject *seq, int *out, int count) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of ints");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "wrong number of items");
        return -1;
    }
    for (int i = 0; i < count; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

/* set_table(buffer of 2**18 doubles): the chance table of evaluation.chances. */
static PyObject *set_table(PyObject *Py_UNUSED(self), PyObject *arg) {
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
    if (view.len != (Py_ssize_t)sizeof(chance_table)) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "the table must hold 2**18 doubles");
        return NULL;
    }
    memcpy(chance_table, view.buf, sizeof(chance_table));
    PyBuffer_Release(&view);
    have_table = 1;
    Py_RETURN_NONE;
}

/* root(x_marks, o_marks, side, target, moves, max_depth, seconds, weights)
 *   -> (best, value, depth, nodes, values)
 * As search.root: deeper and deeper over `moves` (board-major) until max_depth or `seconds`
 * (None for no limit; the first ply always completes); values follow `moves`. */
static PyObject *root(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *xs, *os, *moves_obj, *seconds_obj, *weights;
    int side, target, max_depth;
    if (!PyArg_ParseTuple(args, "OOiiOiOO", &xs, &os, &side, &target, &moves_obj, &max_depth,
                          &seconds_obj, &weights))
        return NULL;
    if (!have_table) {
        PyErr_SetString(PyExc_RuntimeError, "set_table() first");
        return NULL;
    }
    Search s;
    memset(&s, 0, sizeof(s));
    if (read_ints(xs, s.marks[0], 9) < 0 || read_ints(os, s.marks[1], 9) < 0) return NULL;
    double w[3];
    PyObject *fast = PySequence_Fast(weights, "weights: (lines, boards, choice)");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) < 3) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "weights: (lines, boards, choice)");
        return NULL;
    }
    for (int i = 0; i < 3; i++) w[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
    Py_DECREF(fast);
    if (PyErr_Occurred()) return NULL;
    s.w_lines = w[0];
    s.w_boards = w[1];
    s.w_choice = w[2];
    Py_ssize_t count = PySequence_Length(moves_obj);
    if (count < 1 || count > 81) {
        PyErr_SetString(PyExc_ValueError, "1 to 81 moves");
        return NULL;
    }
    int moves[81], order[81], values[81];
    if (read_ints(moves_obj, moves, (int)count) < 0) return NULL;
    double deadline = 0;
    if (seconds_obj != Py_None) {
        double seconds = PyFloat_AsDouble(seconds_obj);
        if (seconds == -1.0 && PyErr_Occurred()) return NULL;
        deadline = now() + seconds;
        if (deadline <= 0) deadline = 1e-9;
    }
    if (!tt) {
        tt = calloc(TT_SIZE, sizeof(Entry));
        if (!tt) return PyErr_NoMemory();
    }
    s.target = target;
    s.hash = zobrist_target[target + 1];
    for (int b = 0; b < 9; b++) {
        for (int who = 0; who < 2; who++)
            for (int c = 0; c < 9; c++)
                if (s.marks[who][b] >> c & 1) s.hash ^= zobrist[who][9 * b + c];
        rate(&s, b);
    }
    for (int i = 0; i < count; i++) {
        values[i] = 0;
        order[i] = i;
    }
    int best = moves[0], best_value = 0, done = 0;
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(tt_lock, WAIT_LOCK);
    generation++;
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
    PyThread_release_lock(tt_lock);
    Py_END_ALLOW_THREADS
    PyObject *list = PyList_New(count);
    if (!list) return NULL;
    for (int i = 0; i < count; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(values[i]));
    return Py_BuildValue("iiiLN", best, best_value, done, s.nodes, list);
}

static PyMethodDef methods[] = {
    {"root", root, METH_VARARGS, "Search a position to a depth or a time (see search.root)."},
    {"set_table", set_table, METH_O, "Set the chance table: 2**18 doubles."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.ultimate._core",
    "The ultimate search in C (see engine/ultimate/search.py, its reference).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    init_tables();
    if (!tt_lock && !(tt_lock = PyThread_allocate_lock())) return PyErr_NoMemory();
    return PyModule_Create(&module);
}
