/* What the two halves of President's compiled engine share (president/_fastplay.c reads and writes
 * the Python state, president/_fastplay_rules.c holds the rules of a trick on C arrays). */
#ifndef PRESIDENT_FASTPLAY_H
#define PRESIDENT_FASTPLAY_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define JOKER 16
#define TWO 15
#define MAXP 8
#define MAXK 9
#define MAXLEGAL 160

typedef struct {
    int wild, pass_locks, equal_value, twos_end, revolution, eight_cut, no_two_finish;
} Rules;

enum { EQUAL_SKIP = 0, EQUAL_ALLOW = 1, EQUAL_NO = 2 };

typedef struct {
    int n;
    uint64_t masks[MAXP];
    int counts[MAXP][17];
    int sizes[MAXP];
    uint64_t played;
    int played_counts[17];
    int up_value, up_count; /* up_count 0: no upcards */
    PyObject *up_obj;       /* borrowed: an interned play, or the state's own upcards */
    int last_player, declined, out, best_free, worst_free, reversed, current;
    int places[MAXP];
} Round;

typedef struct { int8_t value, count, jokers; } Code;

/* PLAYS[value][count][jokers]: the interned Play objects (owned), set once by `init`; SEATS: 0..7 as ints. */
extern PyObject *PLAYS[17][MAXK][MAXK];
extern PyObject *PASS_PLAY;
extern PyObject *SEATS[MAXP];

/* The ints the rules index by, checked where a round enters C (0, or -1 with a ValueError): a hand (or a
 * pack) of one deck; the upcards and the hand of the player to move (what `fp_legal` reads); and a whole
 * round (every hand and its size, the seats, the places). The loops below trust them once checked. */
int fp_check_hand(const int *counts);
int fp_check_trick(const Round *g);
int fp_check_round(const Round *g);
/* `legality.legal_plays` of the player to move, into `out`; returns how many. */
int fp_legal(const Round *g, const Rules *r, Code *out);
/* `PresidentState._play` of a legal play; 1 when it ended the round, -1 on an error. */
int fp_play(Round *g, const Rules *r, Code c, PyObject *history);

/* The Python lists of a state the C loop writes back into, and reading / writing its fields. */
typedef struct { PyObject *masks, *counts, *sizes, *played_counts, *places, *history; } Lists;
int fp_read_state(PyObject *s, Round *g, Lists *l);
int fp_write_state(PyObject *s, const Round *g, const Lists *l);
void fp_drop_lists(Lists *l);

/* `fp_play` of a play the loop chose, refused (-1, an error set) if it is not an interned play. */
int fp_play_chosen(Round *g, const Rules *r, Code c, PyObject *history);
/* The end of a loop: write the state back (even after an error: it then holds every move made so
 * far) and return (steps, status), or NULL with the first error. */
PyObject *fp_loop_result(PyObject *state, const Round *g, Lists *l, int failed, long steps, int status);

/* What rule players read of the table and of the round beyond its C arrays (_fastplay_bots.c). */
typedef struct {
    int has_prev, prev[MAXP];     /* the previous round's places, if any */
    int deck_size, wild, pack[17];  /* the pack's cards per value */
    PyObject *odds, *bits;        /* borrowed: FollowOdds' deal counting; the generator's getrandbits */
    PyObject *normal_order, *reversed_order;  /* borrowed: the view's orders, for `odds` */
} Table;

/* A rule player's decision for the player to move: 1 (the play in `out`), 0 (Python decides), -1 (error).
 * `programs[player][need]` is that player's compiled walk as bytes of int32 (`rulebots.py`). */
int fp_decide(const Round *g, const Table *t, PyObject *programs, const Code *legal, int k, Code *out);
/* play_rules_round(state, rules, programs, forced, table args...): see _fastplay_bots.c. */
PyObject *fp_play_rules_round(PyObject *self, PyObject *args);

#endif
