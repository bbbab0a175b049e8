/* Uniform random Go playouts from the empty board: the C reference for bench/playout.py.
 *
 * Same workload, step for step, as tengen's compiled `playout.uniform_playout`: a padded board
 * (stride = size + 1, walls around), chains as circular linked lists with a head stone that
 * holds the exact liberty count and size, an unordered list of empty points, simple ko, no
 * suicide, and the same eye rule (all orthogonal neighbours own stones or edge; at most one
 * enemy diagonal, none on the edge). Each move is uniform among the legal non-eye points,
 * drawn with xorshift64 from the empty list, a rejected point being swapped to the end; with
 * none the mover passes. A game ends after two passes in a row or `3 * size * size` moves
 * (passes count as moves). The data structures, their update order and the random stream
 * mirror the kernel's, so with the same seed both play the same games.
 *
 * It keeps no Zobrist hash, prisoner counts or undo records (the kernel does).
 *
 * Usage: playout SIZE GAMES SEED   ->  prints "games moves seconds" (the process's CPU time by
 * clock_gettime, as the benches time their single-threaded rows; board setup included,
 * process start excluded).
 * Build: cc -O2 -o playout playout.c
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { EMPTY = 0, BLACK = 1, WHITE = 2, WALL = 3 };
enum { MAX_SIZE = 25, MAX_CELLS = (MAX_SIZE + 2) * (MAX_SIZE + 1) + 1 };

typedef struct {
    int8_t color[MAX_CELLS];
    int16_t head[MAX_CELLS], next[MAX_CELLS], libs[MAX_CELLS], size[MAX_CELLS];
    int16_t empties[MAX_CELLS], epos[MAX_CELLS];
    int nempty, ko, ko_color;
} Board;

static int stride;
static int offs[4];

static void init_board(Board *b, int n) {
    memset(b, 0, sizeof *b);
    stride = n + 1;
    offs[0] = -stride;
    offs[1] = -1;
    offs[2] = 1;
    offs[3] = stride;
    int cells = (n + 2) * (n + 1) + 1;
    for (int loc = 0; loc < cells; loc++) {
        b->color[loc] = WALL;
        b->epos[loc] = -1;
    }
    int k = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            int loc = (r + 1) * stride + c + 1;
            b->color[loc] = EMPTY;
            b->empties[k] = (int16_t)loc;
            b->epos[loc] = (int16_t)k;
            k++;
        }
    b->nempty = k;
}

static inline void set_stone(Board *b, int loc, int color) {
    b->color[loc] = (int8_t)color;
    int i = b->epos[loc], last = --b->nempty;
    int moved = b->empties[last];
    b->empties[i] = (int16_t)moved;
    b->epos[moved] = (int16_t)i;
    b->epos[loc] = -1;
}

static inline void clear_stone(Board *b, int loc) {
    b->color[loc] = EMPTY;
    b->empties[b->nempty] = (int16_t)loc;
    b->epos[loc] = (int16_t)b->nempty;
    b->nempty++;
}

static inline int is_liberty_of(const Board *b, int e, int h) {
    for (int d = 0; d < 4; d++) {
        int a = e + offs[d];
        int c = b->color[a];
        if (c != EMPTY && c != WALL && b->head[a] == h) return 1;
    }
    return 0;
}

/* Merge two chains of one colour; the smaller joins the larger. */
static int merge(Board *b, int h1, int h2) {
    if (b->size[h1] < b->size[h2]) {
        int t = h1;
        h1 = h2;
        h2 = t;
    }
    int libs = b->libs[h1];
    int s = h2;
    do {
        for (int d = 0; d < 4; d++) {
            int e = s + offs[d];
            if (b->color[e] == EMPTY && !is_liberty_of(b, e, h1)) libs++;
        }
        b->head[s] = (int16_t)h1;
        s = b->next[s];
    } while (s != h2);
    int t = b->next[h1];
    b->next[h1] = b->next[h2];
    b->next[h2] = (int16_t)t;
    b->size[h1] += b->size[h2];
    b->libs[h1] = (int16_t)libs;
    return h1;
}

static int remove_chain(Board *b, int any) {
    int head = b->head[any], s = head, n = 0;
    do {
        clear_stone(b, s);
        n++;
        int h0 = -1, h1 = -1, h2 = -1;
        for (int d = 0; d < 4; d++) {
            int a = s + offs[d];
            int c = b->color[a];
            if (c == EMPTY || c == WALL) continue;
            int h = b->head[a];
            if (h == head || h == h0 || h == h1 || h == h2) continue;
            b->libs[h]++;
            if (h0 < 0) h0 = h;
            else if (h1 < 0) h1 = h;
            else h2 = h;
        }
        s = b->next[s];
    } while (s != head);
    return n;
}

/* Legal by simple ko and no suicide (the point is known to be empty). */
static inline int legal(const Board *b, int loc, int color) {
    if (loc == b->ko && color == b->ko_color) return 0;
    int opp = 3 - color;
    for (int d = 0; d < 4; d++) {
        int a = loc + offs[d];
        int c = b->color[a];
        if (c == EMPTY) return 1;
        if (c == color) {
            if (b->libs[b->head[a]] > 1) return 1;
        } else if (c == opp && b->libs[b->head[a]] == 1) {
            return 1;
        }
    }
    return 0;
}

static inline int is_eye_like(const Board *b, int loc, int color) {
    int edge = 0;
    for (int d = 0; d < 4; d++) {
        int c = b->color[loc + offs[d]];
        if (c == WALL) edge = 1;
        else if (c != color) return 0;
    }
    int opp = 3 - color, enemies = 0;
    enemies += b->color[loc - stride - 1] == opp;
    enemies += b->color[loc - stride + 1] == opp;
    enemies += b->color[loc + stride - 1] == opp;
    enemies += b->color[loc + stride + 1] == opp;
    return edge ? enemies == 0 : enemies <= 1;
}

static void play(Board *b, int loc, int color) {
    int opp = 3 - color;
    set_stone(b, loc, color);
    b->head[loc] = (int16_t)loc;
    b->next[loc] = (int16_t)loc;
    b->size[loc] = 1;
    int libs = 0;
    for (int d = 0; d < 4; d++) libs += b->color[loc + offs[d]] == EMPTY;
    b->libs[loc] = (int16_t)libs;

    int capdirs = 0;
    for (int d = 0; d < 4; d++) {
        int a = loc + offs[d];
        if (b->color[a] != opp) continue;
        int h = b->head[a], seen = 0;
        for (int e = 0; e < d; e++) {
            int x = loc + offs[e];
            if (b->color[x] == opp && b->head[x] == h) seen = 1;
        }
        if (seen) continue;
        if (--b->libs[h] == 0) capdirs |= 1 << d;
    }
    for (int d = 0; d < 4; d++) {
        int a = loc + offs[d];
        if (b->color[a] != color) continue;
        int h = b->head[a];
        if (h == b->head[loc]) continue;
        b->libs[h]--;
        merge(b, h, b->head[loc]);
    }
    int captured = 0, ko_point = 0;
    for (int d = 0; d < 4; d++)
        if (capdirs & (1 << d)) {
            int a = loc + offs[d];
            if (b->color[a] == opp) {
                captured += remove_chain(b, a);
                ko_point = a;
            }
        }
    int head = b->head[loc];
    if (captured == 1 && b->size[head] == 1 && b->libs[head] == 1) {
        b->ko = ko_point;
        b->ko_color = opp;
    } else {
        b->ko = 0;
        b->ko_color = 0;
    }
}

static inline uint64_t xorshift(uint64_t *s) {
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

static long playout(Board *b, int color, long max_moves, uint64_t *rng) {
    int passes = 0;
    long moves = 0;
    while (passes < 2 && moves < max_moves) {
        int k = b->nempty, played = 0;
        while (k > 0) {
            int i = (int)(xorshift(rng) % (uint64_t)k);
            int loc = b->empties[i];
            if (!is_eye_like(b, loc, color) && legal(b, loc, color)) {
                play(b, loc, color);
                played = 1;
                break;
            }
            k--;
            int other = b->empties[k];
            b->empties[i] = (int16_t)other;
            b->epos[other] = (int16_t)i;
            b->empties[k] = (int16_t)loc;
            b->epos[loc] = (int16_t)k;
        }
        if (played) {
            passes = 0;
        } else {
            b->ko = 0;
            b->ko_color = 0;
            passes++;
        }
        moves++;
        color = 3 - color;
    }
    return moves;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s SIZE GAMES SEED\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]);
    long games = atol(argv[2]);
    uint64_t rng = strtoull(argv[3], NULL, 10);
    if (n < 1 || n > MAX_SIZE || games < 0 || rng == 0) {
        fprintf(stderr, "need 1 <= SIZE <= %d, GAMES >= 0, SEED > 0\n", MAX_SIZE);
        return 2;
    }
    static Board empty, board;
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    init_board(&empty, n);
    long moves = 0;
    for (long g = 0; g < games; g++) {
        memcpy(&board, &empty, sizeof board);
        moves += playout(&board, BLACK, 3L * n * n, &rng);
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%ld %ld %.9f\n", games, moves, secs);
    return 0;
}
