/* Rule players' decisions in compiled code, for president/_fastplay.c's `play_rules_round`.
 *
 * A personality reaches C as tables of ints made once (`president/game/rulebots.py`): for leading
 * (need 0) and for following `need` cards, the rules worth trying in order (the plan of
 * `personalities.compiled._plan`), each a potential (kind, value, exact count), the conditions read
 * before it is resolved and the ones read after. `decide` is the compiled walk of
 * `personalities/compiled.py` on a President view (`president.game.view.president_view`) written
 * out over the C arrays of the round: the same rules tried, the same conditions read left to right
 * stopping at the first false one, `Random` drawn from the same generator
 * (`randint(1, 100)`: CPython's `_randbelow` loop over `getrandbits(7)`), and `FollowOdds`
 * asked of the Python function (`personalities.odds.odds_of`) where it counts deals.
 */
#include "_fastplay.h"

/* Variable ids and comparisons, as `rulebots.VARIABLES` and `rulebots.COMPARISONS` list them. */
enum {
    V_LEAD, V_RANK, V_NUM_DIFF_VALS, V_TWOS_LEFT, V_PERCENT_PLAYED, V_HIGHEST_OPP_CARDS, V_HIGHER_PLAYERS,
    V_PLAYERS_LEFT, V_TOT_MY_CARDS, V_TOT_MY_TWOS, V_HAND_VALUE, V_MY_LOWEST_CARD, V_MY_HIGHEST_CARD, V_LOCKED,
    V_SEQUENCE_UP, N_FIXED, V_CARD_VAL = N_FIXED, V_NUM_THIS_VALUE, V_FOLLOW_ODDS, V_MATCHES_UP_CARD, V_RANDOM
};
enum { OP_GT, OP_LT, OP_EQ, OP_NE, OP_GE, OP_LE };
/* Potential kinds, as `personalities.resolution` numbers them. */
enum { K_VALUE, K_LOWEST, K_HIGHEST, K_PASS, K_RUN_LOWEST, K_RUN_HIGHEST };
#define NO_RANK 6

typedef struct {
    const Round *g;
    const Table *t;
    int p, need, can_pass, reversed;
    int order[13];
    int unseen[17];
    int opponents[MAXP], n_opponents;
    char has[17][MAXK];  /* the view's legal (value, count) plays: naturals only */
    long fixed[N_FIXED];
    int known;           /* bit i: fixed[i] computed */
} View;

static int rank_of_place(int place, int players) {
    if (place == 1) return 1;
    if (place == players) return 5;
    if (players >= 4 && place == 2) return 2;
    if (players >= 4 && place == players - 1) return 4;
    return 3;
}

static long read_fixed(View *w, int var) {
    if (w->known >> var & 1) return w->fixed[var];
    const int *hand = w->g->counts[w->p];
    long x = 0;
    switch (var) {
    case V_LEAD: x = w->need == 0; break;
    case V_RANK: x = w->t->has_prev ? rank_of_place(w->t->prev[w->p], w->g->n) : NO_RANK; break;
    case V_NUM_DIFF_VALS: for (int v = 3; v < TWO; v++) x += hand[v] != 0; break;
    case V_TWOS_LEFT: x = w->unseen[TWO]; break;
    case V_PERCENT_PLAYED: {
        long played = 0;
        for (int v = 0; v < 17; v++) played += w->g->played_counts[v];
        x = w->t->deck_size ? 100 * played / w->t->deck_size : 0;
        break;
    }
    case V_HIGHEST_OPP_CARDS:
        for (int i = 0; i < w->n_opponents; i++)
            if (w->g->sizes[w->opponents[i]] > x) x = w->g->sizes[w->opponents[i]];
        break;
    case V_HIGHER_PLAYERS:
        if (w->t->has_prev)
            for (int i = 0; i < w->n_opponents; i++) x += w->t->prev[w->opponents[i]] < w->t->prev[w->p];
        break;
    case V_PLAYERS_LEFT: x = w->n_opponents + 1; break;
    case V_TOT_MY_CARDS: for (int v = 0; v < 17; v++) x += hand[v]; break;
    case V_TOT_MY_TWOS: x = hand[TWO]; break;
    case V_HAND_VALUE: {
        long count = 0, sum = 0;
        for (int v = 3; v < TWO; v++) { count += hand[v]; sum += (long)v * hand[v]; }
        x = count ? sum / count : 0;
        break;
    }
    case V_MY_LOWEST_CARD: for (int v = 3; v < TWO && !x; v++) if (hand[v]) x = v; break;
    case V_MY_HIGHEST_CARD: for (int v = TWO - 1; v >= 3 && !x; v--) if (hand[v]) x = v; break;
    default: x = 0;  /* Locked, SequenceUp: suits never matter at the tables this loop plays */
    }
    w->known |= 1 << var;
    return w->fixed[var] = x;
}

/* FollowOdds of (value, count): `personalities.odds.follow_odds`, its deal counting asked of Python. */
static long follow_odds(View *w, int value, int count) {
    if (!w->n_opponents || count <= 0 || value == JOKER) return 0;
    int at = 0;
    while (at < 13 && w->order[at] != value) at++;
    if (count == 1) {  /* jokers beat singles at every President table */
        if (w->unseen[JOKER]) return 100;
        for (int i = at + 1; i < 13; i++) if (w->unseen[w->order[i]]) return 100;
        return 0;
    }
    PyObject *sizes = PyTuple_New(w->n_opponents), *unseen = PyTuple_New(17);
    if (!sizes || !unseen) { Py_XDECREF(sizes); Py_XDECREF(unseen); return -1; }
    for (int i = 0; i < w->n_opponents; i++) PyTuple_SET_ITEM(sizes, i, PyLong_FromLong(w->g->sizes[w->opponents[i]]));
    for (int v = 0; v < 17; v++) PyTuple_SET_ITEM(unseen, v, PyLong_FromLong(w->unseen[v]));
    PyObject *order = w->reversed ? w->t->reversed_order : w->t->normal_order;
    PyObject *x = PyObject_CallFunction(w->t->odds, "OOOiiii", sizes, order, unseen, 1, w->t->wild, value, count);
    Py_DECREF(sizes);
    Py_DECREF(unseen);
    if (!x) return -1;
    long out = PyLong_AsLong(x);
    Py_DECREF(x);
    return out;
}

static long draw_percent(const Table *t) {
    PyObject *width = PyLong_FromLong(7);  /* randint(1, 100): 1 + _randbelow(100) */
    if (!width) return -1;
    for (;;) {
        PyObject *x = PyObject_CallOneArg(t->bits, width);
        if (!x) { Py_DECREF(width); return -1; }
        long i = PyLong_AsLong(x);
        Py_DECREF(x);
        if (i == -1 && PyErr_Occurred()) { Py_DECREF(width); return -1; }
        if (i < 100) { Py_DECREF(width); return 1 + i; }
    }
}

/* One condition's verdict: 1, 0, or -1 on a Python error. `play` is NULL for a pass. */
static int test(View *w, const int32_t *c, const int *play) {
    int var = c[0], op = c[1];
    long x, target = c[2];
    if (var < N_FIXED) x = read_fixed(w, var);
    else if (var == V_RANDOM) { if ((x = draw_percent(w->t)) < 0) return -1; }
    else if (!play) x = 0;  /* a play variable of a pass */
    else if (var == V_CARD_VAL) x = play[0];
    else if (var == V_NUM_THIS_VALUE) x = w->g->counts[w->p][play[0]];
    else if (var == V_MATCHES_UP_CARD) x = w->need && w->g->up_value == play[0];
    else if ((x = follow_odds(w, play[0], play[1])) < 0 && PyErr_Occurred()) return -1;
    switch (op) {
    case OP_GT: return x > target;
    case OP_LT: return x < target;
    case OP_EQ: return x == target;
    case OP_NE: return x != target;
    case OP_GE: return x >= target;
    default: return x <= target;
    }
}

/* `resolution.resolve_code` of L and H: 1 and the play in `out`, or 0 (does not apply). */
static int resolve_search(View *w, int lowest, int exact, int *out) {
    const int *hand = w->g->counts[w->p];
    for (int i = 0; i < 13; i++) {
        int v = w->order[lowest ? i : 12 - i], held = hand[v];
        if (v == TWO) continue;
        if (w->need) {
            if ((exact ? held == w->need : held >= w->need) && w->has[v][w->need]) {
                out[0] = v; out[1] = w->need; return 1;
            }
        } else if (held && (!exact || held == exact) && held < MAXK && w->has[v][held]) {
            out[0] = v; out[1] = held; return 1;
        }
    }
    return 0;
}

/* The walk: 1 with the play in `out` (count 0: a pass), 0 when the view is not one this loop decides
 * on (Python then decides), -1 on a Python error. */
static int walk(View *w, const int32_t *prog, Code *out) {
    const int *hand = w->g->counts[w->p];
    int entries = *prog++, play[2];
    for (int e = 0; e < entries; e++) {
        int kind = prog[0], value = prog[1], exact = prog[2], n_early = prog[3];
        const int32_t *early = prog + 4, *late_head = early + 3 * n_early;
        int n_late = late_head[0];
        const int32_t *late = late_head + 1;
        prog = late + 3 * n_late;
        int holds = 1;
        for (int i = 0; i < n_early && holds; i++)
            if ((holds = test(w, early + 3 * i, NULL)) < 0) return -1;
        if (!holds) continue;
        int applies = 0;
        if (kind == K_PASS) applies = w->can_pass;
        else if (kind == K_VALUE && w->need) {
            applies = hand[value] >= w->need && w->has[value][w->need];
            play[0] = value; play[1] = w->need;
        } else if (kind == K_VALUE) {
            applies = hand[value] && hand[value] < MAXK && w->has[value][hand[value]];
            play[0] = value; play[1] = hand[value];
        } else if (kind == K_LOWEST || kind == K_HIGHEST)
            applies = resolve_search(w, kind == K_LOWEST, exact, play);
        /* Lr, Hr: no sequences where suits do not matter; they never apply */
        if (!applies) continue;
        for (int i = 0; i < n_late && holds; i++)
            if ((holds = test(w, late + 3 * i, kind == K_PASS ? NULL : play)) < 0) return -1;
        if (holds) {
            *out = kind == K_PASS ? (Code){0, 0, 0} : (Code){play[0], play[1], 0};
            return 1;
        }
    }
    /* `resolution.when_no_rule_applies` */
    if (w->can_pass) { *out = (Code){0, 0, 0}; return 1; }
    if (resolve_search(w, 1, 0, play)) { *out = (Code){play[0], play[1], 0}; return 1; }
    for (int i = 0; i <= 13; i++) {  /* the weakest legal play: by strength, then fewest cards */
        int v = i < 13 ? w->order[i] : JOKER;
        for (int k = 1; k < MAXK; k++)
            if (w->has[v][k]) { *out = (Code){v, k, 0}; return 1; }
    }
    return 0;
}

/* A program as `rulebots.program` lays it out, checked before any walk reads it: every count within its
 * bytes, which it fills exactly, and every kind, value, exact count, variable and comparison one `walk`
 * knows. 0, or -1 with a ValueError naming the seat and the need. */
static int check_program(PyObject *bytes, int p, int need) {
    const char *wrong = NULL;
    Py_ssize_t size = PyBytes_GET_SIZE(bytes);
    const int32_t *at = (const int32_t *)PyBytes_AS_STRING(bytes), *end = at + size / 4;
    if (size % 4 || size == 0) wrong = "not whole int32s";
    int32_t entries = wrong ? 0 : *at++;
    if (entries < 0) wrong = "a negative number of rules";
    for (int32_t e = 0; e < entries && !wrong; e++) {
        if (end - at < 3) { wrong = "a rule past its end"; break; }
        if (at[0] < K_VALUE || at[0] > K_RUN_HIGHEST) wrong = "a potential of no known kind";
        else if (at[1] < 0 || at[1] > JOKER) wrong = "a potential's value out of 0..16";
        else if (at[2] < 0 || at[2] >= MAXK) wrong = "a potential's exact count out of 0..8";
        at += 3;
        for (int part = 0; part < 2 && !wrong; part++) {  /* the early conditions, then the late ones */
            if (end - at < 1) { wrong = "a rule past its end"; break; }
            int32_t conditions = *at++;
            if (conditions < 0 || conditions > (end - at) / 3) { wrong = "conditions past its end"; break; }
            for (int32_t i = 0; i < conditions && !wrong; i++, at += 3)
                if (at[0] < 0 || at[0] > V_RANDOM) wrong = "a condition on no known variable";
                else if (at[1] < OP_GT || at[1] > OP_LE) wrong = "a condition of no known comparison";
        }
    }
    if (!wrong && at != end) wrong = "ints past its last rule";
    if (!wrong) return 0;
    PyErr_Format(PyExc_ValueError, "play_rules_round: seat %d's program for %d cards: %s", p, need, wrong);
    return -1;
}

/* The tuples of programs last found sound, held (tuples and bytes never change): the rollouts of one
 * search are handed the same tuple (`rulebots.compiled_seats`), so it is checked once, not per rollout. */
#define CHECKED 8
static PyObject *checked[CHECKED];
static int checked_next;

/* `programs` (a tuple per seat of MAXK programs) checked as `check_program` does, unless already. */
static int check_programs(PyObject *programs, int n) {
    if (PyTuple_GET_SIZE(programs) != n) {
        PyErr_SetString(PyExc_ValueError, "play_rules_round: a tuple of programs per seat");
        return -1;
    }
    for (int i = 0; i < CHECKED; i++)
        if (checked[i] == programs) return 0;
    for (int p = 0; p < n; p++) {
        PyObject *mine = PyTuple_GET_ITEM(programs, p);
        if (!PyTuple_Check(mine) || PyTuple_GET_SIZE(mine) != MAXK) {
            PyErr_Format(PyExc_ValueError, "play_rules_round: seat %d has not a tuple of %d programs", p, MAXK);
            return -1;
        }
        for (int need = 0; need < MAXK; need++) {
            PyObject *prog = PyTuple_GET_ITEM(mine, need);
            if (!PyBytes_Check(prog)) {
                PyErr_Format(PyExc_TypeError, "play_rules_round: seat %d's program for %d cards is not bytes", p, need);
                return -1;
            }
            if (check_program(prog, p, need) < 0) return -1;
        }
    }
    Py_INCREF(programs);
    Py_XSETREF(checked[checked_next], programs);
    checked_next = (checked_next + 1) % CHECKED;
    return 0;
}

/* The table's ints (the pack, its size, the previous places, the rules' equal-value mode) in range: 0, or -1
 * with a ValueError. */
static int check_table(const Table *t, const Rules *r, int n) {
    const char *wrong = NULL;
    int cards = 0;
    for (int v = 0; v < 17; v++) cards += t->pack[v];
    if (fp_check_hand(t->pack) < 0) return -1;
    if (t->deck_size != cards) wrong = "a deck size other than the pack's";
    for (int p = 0; p < n && t->has_prev && !wrong; p++)
        if (t->prev[p] < 1 || t->prev[p] > n) wrong = "a previous place out of the table's";
    if (!wrong && (r->equal_value < EQUAL_SKIP || r->equal_value > EQUAL_NO)) wrong = "no known equal-value rule";
    if (!wrong) return 0;
    PyErr_Format(PyExc_ValueError, "play_rules_round: %s", wrong);
    return -1;
}

int fp_decide(const Round *g, const Table *t, PyObject *programs, const Code *legal, int k, Code *out) {
    View w;
    w.g = g; w.t = t; w.p = g->current; w.need = g->up_count; w.reversed = g->reversed;
    w.known = 0; w.can_pass = 0;
    memset(w.has, 0, sizeof w.has);
    int any = 0;
    for (int i = 0; i < k; i++) {
        if (!legal[i].count) w.can_pass = 1;
        else if (!legal[i].jokers) { w.has[legal[i].value][legal[i].count] = 1; any = 1; }
    }
    if (!any && !w.can_pass) return 0;  /* only wild-joker plays: `president_view` lists them all */
    if (w.need >= MAXK) return 0;
    for (int i = 0; i < 13; i++) w.order[i] = w.reversed ? TWO - i : 3 + i;
    const int *hand = g->counts[w.p];
    for (int v = 0; v < 17; v++) w.unseen[v] = t->pack[v] - hand[v] - g->played_counts[v];
    w.n_opponents = 0;
    for (int q = 0; q < g->n; q++)
        if (!g->places[q] && q != w.p) w.opponents[w.n_opponents++] = q;
    PyObject *mine = PyTuple_GET_ITEM(programs, w.p);
    PyObject *prog = PyTuple_GET_ITEM(mine, w.need);
    return walk(&w, (const int32_t *)PyBytes_AS_STRING(prog), out);
}

/* play_rules_round(state, rules, programs, forced, prev, pack, deck_size, odds, bits, orders) -> (moves, status)
 *
 * Plays the round of a table of rule players (`rulebots.playout`) on C arrays from the player to move,
 * as `recycle.kernel.protocol.play_out` plays it with `RulePlayer.choose`: the same legal plays
 * (`fp_legal`), a player with one legal play and no coin to flip (bit p of `forced`) not asked, every
 * other decision `fp_decide`. Status 1: the round ended; 0: the next decision is one for Python
 * (`fp_decide` returned 0). Every field of the state is written back, after an error too. */
PyObject *fp_play_rules_round(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *programs, *prev, *pack, *orders;
    int forced;
    Rules r;
    Table t;
    if (!PyArg_ParseTuple(args, "O(ppipppp)O!iOO!iOOO!", &state, &r.wild, &r.pass_locks, &r.equal_value,
                          &r.twos_end, &r.revolution, &r.eight_cut, &r.no_two_finish, &PyTuple_Type, &programs,
                          &forced, &prev, &PyTuple_Type, &pack, &t.deck_size, &t.odds, &t.bits, &PyTuple_Type,
                          &orders))
        return NULL;
    if (!PASS_PLAY) { PyErr_SetString(PyExc_RuntimeError, "fastplay: init() was not called"); return NULL; }
    t.wild = r.wild;
    if (PyTuple_GET_SIZE(pack) != 17 || PyTuple_GET_SIZE(orders) != 2) {
        PyErr_SetString(PyExc_ValueError, "play_rules_round: a pack of 17 counts and two orders");
        return NULL;
    }
    t.normal_order = PyTuple_GET_ITEM(orders, 0);
    t.reversed_order = PyTuple_GET_ITEM(orders, 1);
    for (int v = 0; v < 17; v++)
        if ((t.pack[v] = (int)PyLong_AsLong(PyTuple_GET_ITEM(pack, v))) == -1 && PyErr_Occurred()) return NULL;
    t.has_prev = prev != Py_None;
    Round g;
    Lists l = {0};
    if (fp_read_state(state, &g, &l) < 0) { fp_drop_lists(&l); return NULL; }
    int bad = check_programs(programs, g.n) < 0;
    for (int p = 0; p < g.n && !bad && t.has_prev; p++) {
        PyObject *place = PyTuple_Check(prev) && PyTuple_GET_SIZE(prev) == g.n ? PyTuple_GET_ITEM(prev, p) : NULL;
        bad = !place || ((t.prev[p] = (int)PyLong_AsLong(place)) == -1 && PyErr_Occurred());
    }
    if (bad || check_table(&t, &r, g.n) < 0) {
        fp_drop_lists(&l);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "play_rules_round: a tuple of a place per seat");
        return NULL;
    }
    long steps = 0;
    int status = 0, failed = 0;
    Code legal_now[MAXLEGAL], c;
    for (;;) {
        int k = fp_legal(&g, &r, legal_now);
        if (k == 1 && forced >> g.current & 1) c = legal_now[0];
        else {
            int rc = fp_decide(&g, &t, programs, legal_now, k, &c);
            if (rc < 0) { failed = 1; break; }
            if (rc == 0) break;
        }
        int rc = fp_play_chosen(&g, &r, c, l.history);
        if (rc < 0) { failed = 1; break; }
        steps++;
        if (rc) { status = 1; break; }
    }
    return fp_loop_result(state, &g, &l, failed, steps, status);
}
