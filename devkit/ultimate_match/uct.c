/* A plain UCT Monte Carlo tree search for ultimate tic-tac-toe: the independent opponent of
 * benchmarks/ultimate/ultimate.py. Written from the rules alone; it shares no code with the engine.
 *
 * Cells are global indices 0-80 in reading order of the 9x9 grid (row r, column c: 9r + c);
 * 0 empty, 1 X, 2 O. The small-board status is recomputed from the cells on every call.
 * `forced` is the small board the previous move sends the player to (the cell's index within
 * its own small board), or -1 for any; a closed small board means any open one.
 *
 * Search: a fresh tree each move; selection by UCB1 (w/n + c*sqrt(ln N / n)), expansion of one
 * untried move chosen at random, a uniformly random playout, results scored from the mover's
 * view (win 1, draw 0.5, loss 0); the final move is the root child with the most visits.
 * Random numbers: xorshift64*, seeded by the caller.
 *
 * Exported: uct_move (the search), uct_legal and uct_result (the rules, for the cross-check
 * against the engine), uct_random_game (a uniformly random game, for the cross-check).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define OPEN 0
#define DRAWN 3
#define FULL 0x1FF

typedef struct {
    uint16_t mark[2][9]; /* per small board: bit l set when player p+1 holds local cell l */
    uint8_t status[9];   /* OPEN, 1 (X won), 2 (O won), DRAWN (full, nobody won) */
    uint16_t won[2];     /* bit b set when player p+1 won small board b */
    uint16_t open;       /* bit b set while small board b is open */
    int forced;          /* small board to play in, or -1 for any open one */
    int to_move;         /* 1 X, 2 O */
    int result;          /* 0 running, 1 X won, 2 O won, 3 draw */
} State;

typedef struct {
    int parent, first_child, next_sibling;
    int move;          /* global cell of the move leading here (-1 at the root) */
    int mover;         /* who made that move: 1 X, 2 O (at the root, the opponent) */
    int untried_at;    /* offset of this node's untried moves in the move pool, -1 unexpanded */
    int untried;       /* how many untried moves are left there */
    double visits, wins; /* wins: from the view of the player who made `move` */
} Node;

static uint8_t WINS[512];        /* WINS[mask]: the mask holds three in a row */
static uint8_t BOARD_OF[81], LOCAL_OF[81], GLOBAL_OF[9][9];
static int tables_ready;

static void init_tables(void) {
    static const int lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                    {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
    if (tables_ready) return;
    for (int m = 0; m < 512; m++) {
        WINS[m] = 0;
        for (int i = 0; i < 8; i++) {
            int need = (1 << lines[i][0]) | (1 << lines[i][1]) | (1 << lines[i][2]);
            if ((m & need) == need) WINS[m] = 1;
        }
    }
    for (int g = 0; g < 81; g++) {
        int r = g / 9, c = g % 9;
        BOARD_OF[g] = (uint8_t)((r / 3) * 3 + c / 3);
        LOCAL_OF[g] = (uint8_t)((r % 3) * 3 + c % 3);
        GLOBAL_OF[BOARD_OF[g]][LOCAL_OF[g]] = (uint8_t)g;
    }
    tables_ready = 1;
}

static uint64_t next_random(uint64_t *s) {
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static int below(uint64_t *s, int n) { return (int)((next_random(s) >> 33) % (uint64_t)n); }

static void settle_board(State *st, int b) {
    for (int p = 0; p < 2; p++)
        if (WINS[st->mark[p][b]]) {
            st->status[b] = (uint8_t)(p + 1);
            st->won[p] |= (uint16_t)(1 << b);
            st->open &= (uint16_t)~(1 << b);
            return;
        }
    if ((st->mark[0][b] | st->mark[1][b]) == FULL) {
        st->status[b] = DRAWN;
        st->open &= (uint16_t)~(1 << b);
    }
}

static void settle_game(State *st) {
    if (WINS[st->won[0]]) st->result = 1;
    else if (WINS[st->won[1]]) st->result = 2;
    else if (!st->open) st->result = 3;
    else st->result = 0;
}

static void load(State *st, const signed char cells[81], int to_move, int forced) {
    init_tables();
    memset(st, 0, sizeof *st);
    st->open = FULL;
    for (int g = 0; g < 81; g++)
        if (cells[g] == 1 || cells[g] == 2)
            st->mark[cells[g] - 1][BOARD_OF[g]] |= (uint16_t)(1 << LOCAL_OF[g]);
    for (int b = 0; b < 9; b++) settle_board(st, b);
    settle_game(st);
    st->to_move = to_move;
    st->forced = (forced >= 0 && forced < 9 && st->status[forced] == OPEN) ? forced : -1;
}

/* Legal moves as global cells, ascending; returns how many. */
static int legal(const State *st, int *out) {
    int n = 0;
    if (st->result) return 0;
    for (int g = 0; g < 81; g++) {
        int b = BOARD_OF[g];
        if (st->forced >= 0 && b != st->forced) continue;
        if (st->status[b] != OPEN) continue;
        if (((st->mark[0][b] | st->mark[1][b]) >> LOCAL_OF[g]) & 1) continue;
        out[n++] = g;
    }
    return n;
}

static void play(State *st, int g) {
    int b = BOARD_OF[g], l = LOCAL_OF[g], p = st->to_move - 1;
    st->mark[p][b] |= (uint16_t)(1 << l);
    settle_board(st, b);
    if (st->status[b] != OPEN) settle_game(st);
    st->forced = st->status[l] == OPEN ? l : -1;
    st->to_move = 3 - st->to_move;
}

/* A uniformly random legal move, without listing them all when a board is forced. */
static int random_move(const State *st, uint64_t *rng) {
    if (st->forced >= 0) {
        int b = st->forced;
        unsigned empty = FULL & ~(unsigned)(st->mark[0][b] | st->mark[1][b]);
        int k = below(rng, __builtin_popcount(empty));
        while (k--) empty &= empty - 1;
        return GLOBAL_OF[b][__builtin_ctz(empty)];
    }
    int total = 0;
    for (int b = 0; b < 9; b++)
        if ((st->open >> b) & 1)
            total += __builtin_popcount(FULL & ~(unsigned)(st->mark[0][b] | st->mark[1][b]));
    int k = below(rng, total);
    for (int b = 0; b < 9; b++) {
        if (!((st->open >> b) & 1)) continue;
        unsigned empty = FULL & ~(unsigned)(st->mark[0][b] | st->mark[1][b]);
        int here = __builtin_popcount(empty);
        if (k >= here) {
            k -= here;
            continue;
        }
        while (k--) empty &= empty - 1;
        return GLOBAL_OF[b][__builtin_ctz(empty)];
    }
    return -1; /* unreachable while the game runs */
}

static int playout(State *st, uint64_t *rng) {
    while (!st->result) play(st, random_move(st, rng));
    return st->result;
}

int uct_legal(const signed char cells[81], int forced, int *out) {
    State st;
    load(&st, cells, 1, forced);
    return legal(&st, out);
}

int uct_result(const signed char cells[81]) {
    State st;
    load(&st, cells, 1, -1);
    return st.result;
}

/* One random game from the empty board; the moves go to `moves` (room for 81), returns the
 * result. Used to time the playouts and to sample positions. */
int uct_random_game(unsigned long long seed, int *moves, int *length) {
    State st;
    signed char empty[81] = {0};
    uint64_t rng = seed ? seed : 0x9E3779B97F4A7C15ULL;
    int n = 0;
    load(&st, empty, 1, -1);
    while (!st.result) {
        int g = random_move(&st, &rng);
        moves[n++] = g;
        play(&st, g);
    }
    *length = n;
    return st.result;
}

int uct_move(const signed char cells[81], int to_move, int forced, int sims,
             unsigned long long seed, double c) {
    State root;
    int moves[81], first[81];
    load(&root, cells, to_move, forced);
    int n = legal(&root, first);
    if (n == 0) return -1;
    if (n == 1 || sims < 1) return first[0];

    uint64_t rng = seed ? seed : 0x9E3779B97F4A7C15ULL;
    int capacity = sims + 1;
    Node *nodes = malloc(sizeof(Node) * (size_t)capacity);
    unsigned char *pool = malloc((size_t)capacity * 81);
    if (!nodes || !pool) {
        free(nodes);
        free(pool);
        return -2;
    }
    int count = 1, pool_used = 0;
    nodes[0] = (Node){-1, -1, -1, -1, 3 - to_move, -1, 0, 0.0, 0.0};

    for (int s = 0; s < sims; s++) {
        State st = root;
        int at = 0;
        /* Selection: descend through fully expanded nodes. */
        for (;;) {
            Node *node = &nodes[at];
            if (st.result) break;
            if (node->untried_at < 0) {
                node->untried_at = pool_used;
                node->untried = legal(&st, moves);
                for (int i = 0; i < node->untried; i++)
                    pool[pool_used + i] = (unsigned char)moves[i];
                pool_used += node->untried;
            }
            if (node->untried > 0) break;
            double log_n = log(node->visits), best = -1.0;
            int chosen = -1;
            for (int ch = node->first_child; ch >= 0; ch = nodes[ch].next_sibling) {
                double v = nodes[ch].visits;
                double ucb = nodes[ch].wins / v + c * sqrt(log_n / v);
                if (ucb > best) {
                    best = ucb;
                    chosen = ch;
                }
            }
            at = chosen;
            play(&st, nodes[at].move);
        }
        /* Expansion: one untried move, chosen at random. */
        if (!st.result && count < capacity) {
            Node *node = &nodes[at];
            int i = below(&rng, node->untried);
            unsigned char *untried = pool + node->untried_at;
            int g = untried[i];
            untried[i] = untried[--node->untried];
            nodes[count] = (Node){at, -1, node->first_child, g, st.to_move, -1, 0, 0.0, 0.0};
            node->first_child = count;
            at = count++;
            play(&st, g);
        }
        /* Simulation and backpropagation. */
        int result = playout(&st, &rng);
        for (int x = at; x >= 0; x = nodes[x].parent) {
            nodes[x].visits += 1.0;
            nodes[x].wins += result == nodes[x].mover ? 1.0 : (result == 3 ? 0.5 : 0.0);
        }
    }

    int best_move = first[0];
    double most = -1.0;
    for (int ch = nodes[0].first_child; ch >= 0; ch = nodes[ch].next_sibling)
        if (nodes[ch].visits > most) {
            most = nodes[ch].visits;
            best_move = nodes[ch].move;
        }
    free(nodes);
    free(pool);
    return best_move;
}
